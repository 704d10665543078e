// The Python module's native part, _siglab: SigLab's readers, engines and statistics on NumPy
// arrays. Inputs are used where they lie (no copy) and results are handed over without a copy;
// the GIL is released while SigLab works. siglab/__init__.py is the public face.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/stat.h>

#include <map>
#include <memory>
#include <optional>
#include <type_traits>
#include <string>
#include <vector>

#include "all_backends.hpp"
#include "siglab/comparison.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/device_list.hpp"
#include "siglab/job.hpp"
#include "siglab/large_page_buffer.hpp"
#include "siglab/measure.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/statistics.hpp"
#include "siglab/taps.hpp"

namespace py = pybind11;
using namespace siglab;

namespace {

// A vector's samples as a NumPy array that owns them (the vector moves into the array's base).
template <class Vector>
py::array_t<typename Vector::value_type> toArray(Vector&& values) {
  using T = typename Vector::value_type;
  auto* owner = new Vector(std::move(values));
  py::capsule free(owner, [](void* p) { delete static_cast<Vector*>(p); });
  return py::array_t<T>({owner->size()}, {sizeof(T)}, owner->data(), free);
}

// A new result of n samples, as NumPy's empty() but, from one large page up, in a LargePageBuffer
// owned by the array's base: the kernel zeroes a new result's pages as the engine first writes
// them, cheapest in 2 MiB pages (NumPy leaves up to 2 MiB at each end in 4 KiB ones).
template <class T>
py::array_t<T> newResult(std::size_t n) {
  if (n * sizeof(T) < kLargePageBytes) return py::array_t<T>(n);
  auto owner = std::make_unique<LargePageBuffer>(n * sizeof(T));
  py::capsule free(owner.get(), [](void* p) { delete static_cast<LargePageBuffer*>(p); });
  auto* data = static_cast<T*>(owner.release()->data());
  return py::array_t<T>({n}, {sizeof(T)}, data, free);
}

// The filter a call describes, bounded by its signal of `samples` as the CLI bounds it after
// reading (fitSpecToSignal): a mean window is never built longer than the signal can use.
FilterSpec makeSpec(std::size_t window, const std::string& mode, const std::optional<std::vector<double>>& taps,
                    const std::optional<double>& gaussian, std::size_t samples) {
  const auto boundary = parseBoundaryMode(mode);
  if (!boundary) throw std::invalid_argument("mode must be zero, reflect, mirror, nearest or wrap, not \"" + mode + "\"");
  if (taps && gaussian) throw std::invalid_argument("give taps or gaussian, not both");
  FilterSpec spec;
  if (gaussian) {
    spec = makeGaussianFilter(*gaussian, *boundary);
  } else if (taps) {
    spec.taps = *taps;
    spec.mode = *boundary;
  } else {
    std::string note;
    spec = meanFilterFitted(window, *boundary, samples, "window", note);
  }
  validate(spec);
  fitSpecToSignal(spec, samples, taps ? "taps window" : gaussian ? "gaussian window" : "window");
  return spec;
}

// The engines, made once for the process: GPU engines keep their device state between calls.
BackendList& engines() {
  static BackendList list = makeAllBackends();
  return list;
}

// The GPUs a call's `devices` names (None: nullopt, the process's engines on device 0): "all",
// "0,1" or a sequence of ints, read by parseDeviceList against this machine's GPUs.
std::optional<std::vector<int>> deviceListOf(const py::object& devices) {
  if (devices.is_none()) return std::nullopt;
  std::string text;
  if (py::isinstance<py::str>(devices)) {
    text = devices.cast<std::string>();
  } else if (py::isinstance<py::sequence>(devices)) {
    for (const py::handle item : devices.cast<py::sequence>()) {
      if (!py::isinstance<py::int_>(item) || py::isinstance<py::bool_>(item)) {
        throw std::invalid_argument("devices must be \"all\", a string such as \"0,1\" or GPU numbers such as [0, 1], not " +
                                    py::repr(devices).cast<std::string>());
      }
      text += (text.empty() ? "" : ",") + py::str(item).cast<std::string>();
    }
  } else {
    throw std::invalid_argument("devices must be \"all\", a string such as \"0,1\" or GPU numbers such as [0, 1], not " +
                                py::repr(devices).cast<std::string>());
  }
  static const std::vector<DeviceInfo> probed = probeDevices();
  try {
    return parseDeviceList(text, probed.front().index < 0 ? 0 : static_cast<int>(probed.size()));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("devices ") + e.what());
  }
}

// The engines on `devices`: the process's own for nullopt, else made once per device list.
BackendList& enginesOn(const std::optional<std::vector<int>>& devices) {
  if (!devices) return engines();
  static std::map<std::vector<int>, BackendList> made;  // the GIL guards it
  auto found = made.find(*devices);
  if (found == made.end()) {
    CudaOptions options;
    options.devices = *devices;
    found = made.emplace(*devices, makeAllBackends(options)).first;
  }
  return found->second;
}

FilterBackend& engineNamed(const std::string& name, BackendList& list = engines()) {
  for (auto& e : list) {
    if (e->name() == name) return *e;
  }
  std::string known;
  for (auto& e : list) known += (known.empty() ? "" : ", ") + std::string(e->name());
  throw std::invalid_argument("no engine named \"" + name + "\"; engines: " + known);
}

// The job a call describes: auto or the engine it names (checked first, with Python's message).
Job jobFor(const FilterSpec& spec, const std::string& engineName, BackendList& list) {
  if (engineName != "auto") engineNamed(engineName, list);
  Job job;
  job.spec = spec;
  job.engines = engineName;
  return job;
}

// The engine a call names, or auto's choice (the CLI's rule: chooseApplyEngine), checked before it runs.
template <class T>
FilterBackend& chooseEngine(const std::string& requested, const FilterSpec& spec, BackendList& list = engines()) {
  Job job = jobFor(spec, requested, list);
  job.sampleType = std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64;
  return *chooseApplyEngine(list, job).engine;
}

// `out`, when given, is a caller's array the result is written into (no allocation: an 80 MB
// result costs more in first-touch page faults than a fast engine takes to fill it). The engines
// run as the CLI runs them (runJobEngines): with auto, one that fails here gives way to the next.
template <class T>
py::array_t<T> filterArray(py::array_t<T, py::array::c_style> x, const FilterSpec& spec, const std::string& engineName,
                           std::string& used, std::optional<py::array> into, BackendList& list = engines()) {
  if (x.ndim() != 1) throw std::invalid_argument("x must be one-dimensional, not of shape with " + std::to_string(x.ndim()) + " axes");
  const Job job = jobFor(spec, engineName, list);
  py::array_t<T> out;
  if (into) {
    if (!py::isinstance<py::array_t<T, py::array::c_style>>(*into) || into->ndim() != 1 || into->size() != x.size() ||
        !into->writeable()) {
      throw std::invalid_argument("out must be a writeable, contiguous one-dimensional array of x's dtype and size");
    }
    out = py::reinterpret_borrow<py::array_t<T>>(*into);
  } else {
    out = newResult<T>(static_cast<std::size_t>(x.size()));
  }
  const std::span<const T> in(x.data(), static_cast<std::size_t>(x.size()));
  const std::span<T> result(out.mutable_data(), static_cast<std::size_t>(out.size()));
  EngineRun run;
  {
    py::gil_scoped_release release;
    run = runJobEngines(list, job, in, result);  // once: no warm-up, no repeats
  }
  used = std::string(run.engine->name());
  return out;
}

// An output file that many processes write at once, each its own blocks at their places
// (siglab.raw_files.RawFileTarget for Dask): checked against the inputs by the CLI's own output
// checks, written to a temporary beside it that commit() renames into place once every block is
// there; discard(), or the object's end, removes the temporary and leaves the old file as it was.
class SharedOutputFile {
 public:
  SharedOutputFile(const std::string& path, const std::vector<std::string>& inputs) {
    std::vector<NamedPath> named;
    for (const std::string& input : inputs) named.push_back({"input", input});
    const NamedPath outputs[] = {{"output", path}};
    checkOutputsBeforeWork(outputs, named);
    struct stat existing {};
    if (::stat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
      // Blocks land at their places: a pipe or a device cannot take them out of order.
      throw std::invalid_argument("output " + path + " is not a regular file: write the blocks to a file");
    }
    file_ = std::make_unique<AtomicFileWriter>(path, Durability::flushed);
  }
  const std::string& temporaryPath() const { return open().temporaryPath(); }
  void commit() {
    open().commit();
    file_.reset();
  }
  void discard() { file_.reset(); }

 private:
  AtomicFileWriter& open() const {
    if (!file_) throw std::invalid_argument("the output file was already committed or discarded");
    return *file_;
  }
  std::unique_ptr<AtomicFileWriter> file_;
};

py::dict statisticsDict(const Statistics& s) {
  py::dict d;
  d["count"] = s.count;
  d["sum"] = s.sum;
  d["mean"] = s.mean;
  d["sumsq"] = s.sumsq;
  d["rms"] = s.rms;
  d["variance"] = s.variance;
  d["std"] = s.stddev;
  d["min"] = s.min;
  d["min_index"] = s.minIndex;
  d["max"] = s.max;
  d["max_index"] = s.maxIndex;
  return d;
}

}  // namespace

PYBIND11_MODULE(_siglab, m) {
  m.doc() = "SigLab's native engines; import siglab, not this module";
  static py::exception<InputError> inputError(m, "InputError", PyExc_OSError);
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      inputError(e.what());
    }
  });

  py::class_<SharedOutputFile>(m, "OutputFile")
      .def(py::init<const std::string&, const std::vector<std::string>&>(), py::arg("path"), py::arg("inputs"))
      .def_property_readonly("temporary_path", &SharedOutputFile::temporaryPath)
      .def("commit", &SharedOutputFile::commit, py::call_guard<py::gil_scoped_release>())
      .def("discard", &SharedOutputFile::discard);

  m.def(
      "read_signal",
      [](const std::string& path, std::size_t column, bool skipHeader, std::optional<std::string> raw,
         std::uint64_t offset, std::size_t channel, bool allowNonFinite) {
        ReadOptions options;
        options.column = column;
        options.skipHeader = skipHeader;
        if (raw) {
          options.rawType = parseSampleTypeName(*raw);
          if (!options.rawType) throw std::invalid_argument("raw must be a sample type such as f64, f32, i16, not \"" + *raw + "\"");
        }
        options.rawOffset = offset;
        options.channel = channel;
        options.allowNonFinite = allowNonFinite;
        Signal signal;
        {
          py::gil_scoped_release release;
          signal = readSignal(path, options);
        }
        return py::make_tuple(toArray(std::move(signal.samples)), signal.sampleRate);
      },
      py::arg("path"), py::arg("column") = 0, py::arg("skip_header") = false, py::arg("raw") = py::none(),
      py::arg("offset") = 0, py::arg("channel") = 1, py::arg("allow_nonfinite") = false);

  m.def(
      "filter",
      [](py::array x, std::size_t window, const std::string& mode, std::optional<std::vector<double>> taps,
         std::optional<double> gaussian, const std::string& engine, std::optional<py::array> out,
         const py::object& devices) -> py::tuple {
        const FilterSpec spec = makeSpec(window, mode, taps, gaussian, static_cast<std::size_t>(x.size()));
        BackendList& list = enginesOn(deviceListOf(devices));
        std::string used;
        if (py::isinstance<py::array_t<float>>(x)) {
          auto result = filterArray<float>(x.cast<py::array_t<float, py::array::c_style>>(), spec, engine, used, out, list);
          return py::make_tuple(result, used);
        }
        if (!py::isinstance<py::array_t<double>>(x)) throw std::invalid_argument("x must hold float64 or float32 samples");
        auto result = filterArray<double>(x.cast<py::array_t<double, py::array::c_style>>(), spec, engine, used, out, list);
        return py::make_tuple(result, used);
      },
      py::arg("x"), py::arg("window") = kDefaultWindow, py::arg("mode") = "zero", py::arg("taps") = py::none(),
      py::arg("gaussian") = py::none(), py::arg("engine") = "auto", py::arg("out") = py::none(),
      py::arg("devices") = py::none());

  // The engine's own time in C++ (no Python between runs): what siglab.filter is measured against.
  // result "reuse": into `out` every time, the engine's reported total; "new": into a fresh
  // LargePageBuffer each time, as siglab.filter without out= makes, allocated, filled and freed
  // within the time; "vector": the same with std::vector<double>(n) (zeroed, malloc's pages).
  // The median, min and max (ms).
  m.def(
      "time_engine",
      [](py::array_t<double, py::array::c_style> x, std::optional<py::array_t<double, py::array::c_style>> out,
         std::size_t window, const std::string& mode, const std::string& engineName, int warmups, int repeats,
         const std::string& resultKind) {
        if (resultKind != "reuse" && resultKind != "new" && resultKind != "vector") {
          throw std::invalid_argument("result must be reuse, new or vector, not \"" + resultKind + "\"");
        }
        if (resultKind == "reuse" && (!out || out->size() != x.size() || !out->writeable())) {
          throw std::invalid_argument("out must be writeable and of x's size");
        }
        if (repeats < 1 || warmups < 0) throw std::invalid_argument("repeats must be at least 1 and warmups at least 0");
        const FilterSpec spec = makeSpec(window, mode, std::nullopt, std::nullopt, static_cast<std::size_t>(x.size()));
        FilterBackend& engine = chooseEngine<double>(engineName, spec);
        const auto n = static_cast<std::size_t>(x.size());
        const std::span<const double> in(x.data(), n);
        const std::span<double> reused = out ? std::span<double>(out->mutable_data(), n) : std::span<double>();
        const auto once = [&]() -> PhaseTimes {
          if (resultKind == "reuse") return engine.filter(in, spec, reused, RunOptions{}).phases;
          if (resultKind == "new") {
            return timeOnHost([&] {
              LargePageBuffer fresh(n * sizeof(double));
              engine.filter(in, spec, std::span<double>(static_cast<double*>(fresh.data()), n), RunOptions{});
            });
          }
          return timeOnHost([&] {
            std::vector<double> fresh(n);
            engine.filter(in, spec, std::span<double>(fresh), RunOptions{});
          });
        };
        PhaseStats stats;
        {
          py::gil_scoped_release release;
          stats = measure(once, MeasureOptions{warmups, repeats});
        }
        py::dict d;
        d["median_ms"] = stats.total.medianMs;
        d["min_ms"] = stats.total.minMs;
        d["max_ms"] = stats.total.maxMs;
        return d;
      },
      py::arg("x"), py::arg("out"), py::arg("window"), py::arg("mode"), py::arg("engine"), py::arg("warmups") = 1,
      py::arg("repeats") = 10, py::arg("result") = "reuse");

  // measure() for Python callers: benchmarks time Python calls with SigLab's one warm-up/repeat loop.
  m.def(
      "measure",
      [](const py::function& once, int warmups, int repeats) {
        if (repeats < 1 || warmups < 0) throw std::invalid_argument("repeats must be at least 1 and warmups at least 0");
        const PhaseStats stats = measure([&] { return timeOnHost([&] { once(); }); }, MeasureOptions{warmups, repeats});
        py::dict d;
        d["median_ms"] = stats.total.medianMs;
        d["min_ms"] = stats.total.minMs;
        d["max_ms"] = stats.total.maxMs;
        return d;
      },
      py::arg("once"), py::arg("warmups") = 1, py::arg("repeats") = 10);

  m.def(
      "compare",
      [](py::array_t<double, py::array::c_style> x, std::size_t window, const std::string& mode,
         std::optional<std::vector<double>> taps, std::optional<double> gaussian, std::vector<std::string> names,
         int repeat, const py::object& devices) {
        const FilterSpec spec = makeSpec(window, mode, taps, gaussian, static_cast<std::size_t>(x.size()));
        BackendList& list = enginesOn(deviceListOf(devices));
        std::vector<FilterBackend*> chosen;  // the engines on `devices`, in the order asked for
        for (const std::string& name : names) chosen.push_back(&engineNamed(name, list));
        CompareOptions options;
        options.measure.repeats = repeat;
        validate(options.measure);  // before any engine runs, as --repeat is checked
        Comparison comparison;
        {
          py::gil_scoped_release release;
          comparison = runComparison(chosen, std::span<const double>(x.data(), static_cast<std::size_t>(x.size())), spec, options);
        }
        py::list rows;
        for (const BackendResult& r : comparison.results) {
          py::dict row;
          row["engine"] = r.name;
          row["status"] = r.run.status == RunStatus::Ok ? "ok" : r.run.status == RunStatus::Unavailable ? "unavailable" : "failed";
          row["message"] = r.run.message;
          row["kernel_ms"] = r.run.kernel.medianMs;
          row["transfer_ms"] = r.run.transfer.medianMs;
          row["total_ms"] = r.run.total.medianMs;
          row["max_abs_diff"] = r.agreement.maxAbsDiff;
          row["agrees"] = r.agrees;
          row["speedup_vs_cpu_serial"] = comparison.endToEndSpeedup(r);
          rows.append(row);
        }
        return py::make_tuple(rows, toArray(std::move(comparison.reference)));
      },
      py::arg("x"), py::arg("window") = kDefaultWindow, py::arg("mode") = "zero", py::arg("taps") = py::none(),
      py::arg("gaussian") = py::none(), py::arg("engines"), py::arg("repeat") = 10, py::arg("devices") = py::none());

  m.def(
      "stats",
      [](py::array_t<double, py::array::c_style> x) {
        Statistics s;
        {
          py::gil_scoped_release release;
          s = statisticsSerial(std::span<const double>(x.data(), static_cast<std::size_t>(x.size())));
        }
        return statisticsDict(s);
      },
      py::arg("x"));

  m.def("engines", [] {
    py::list list;
    for (auto& e : engines()) {
      py::dict d;
      d["name"] = std::string(e->name());
      d["description"] = std::string(e->description());
      d["unavailable_reason"] = e->whyNot(makeMeanFilter(kDefaultWindow), SampleType::f64);
      list.append(d);
    }
    return list;
  });
}
