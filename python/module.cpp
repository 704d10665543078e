// The Python module's native part, _siglab: SigLab's readers, pipelines (pipeline_binding.cpp),
// engine comparisons and statistics on NumPy arrays. Inputs are used where they lie (no copy);
// the GIL is released while SigLab works. siglab/__init__.py is the public face.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <sys/stat.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine_lists.hpp"
#include "design_binding.hpp"
#include "io_binding.hpp"
#include "pipeline_binding.hpp"
#include "spectrum_binding.hpp"
#include "siglab/comparison.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/job.hpp"
#include "siglab/large_page_buffer.hpp"
#include "siglab/measure.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/recycling_resource.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/statistics.hpp"

namespace py = pybind11;
using namespace siglab;
using siglab::python::engines;
using siglab::python::enginesOn;
using siglab::python::deviceListOf;

namespace {

// A vector's samples as a NumPy array that owns them (the vector moves into the array's base).
template <class Vector>
py::array_t<typename Vector::value_type> toArray(Vector&& values) {
  using T = typename Vector::value_type;
  auto* owner = new Vector(std::move(values));
  py::capsule free(owner, [](void* p) { delete static_cast<Vector*>(p); });
  return py::array_t<T>({owner->size()}, {sizeof(T)}, owner->data(), free);
}

// The mean filter time_engine times, bounded by its signal of `samples` as the CLI bounds it.
FilterSpec meanSpec(std::size_t window, const std::string& mode, std::size_t samples) {
  const auto boundary = parseBoundaryMode(mode);
  if (!boundary) throw std::invalid_argument("mode must be zero, reflect, mirror, nearest or wrap, not \"" + mode + "\"");
  std::string note;
  FilterSpec spec = meanFilterFitted(window, *boundary, samples, "window", note);
  validate(spec);
  return spec;
}

// The filter a one-stage pipeline (siglab.filter's keywords) runs on a signal of `samples`, as
// core binds it; a stage that is no filter has no engines to compare.
FilterSpec oneFilterOf(const Pipeline& pipeline, std::size_t samples) {
  if (pipeline.stages.size() != 1) throw std::invalid_argument("compare takes one stage");
  const std::unique_ptr<BoundStage> stage = bindStage(pipeline.stages.front(), 1, StageContext{samples, std::nullopt, {}});
  if (!stage->filterSpec()) throw std::invalid_argument(std::string(pipeline.stages.front().kind->name()) + " has no engines to compare");
  return *stage->filterSpec();
}

FilterBackend& engineNamed(const std::string& name, BackendList& list = engines()) {
  for (auto& e : list) {
    if (e->name() == name) return *e;
  }
  std::string known;
  for (auto& e : list) known += (known.empty() ? "" : ", ") + std::string(e->name());
  throw std::invalid_argument("no engine named \"" + name + "\"; engines: " + known);
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
  // Core's results, handed to NumPy as they are; each call's result reuses a dropped one's pages.
  std::pmr::set_default_resource(&siglab::recycledLargePageResource());
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

  siglab::python::bindPipeline(m);
  siglab::python::bindDesigns(m);
  siglab::python::bindSpectrum(m);
  siglab::python::bindSignalFiles(m);

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
        const FilterSpec spec = meanSpec(window, mode, static_cast<std::size_t>(x.size()));
        FilterBackend& engine = engineNamed(engineName);  // a benchmark times the engine it names
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
      [](py::array_t<double, py::array::c_style> x, const Pipeline& pipeline, std::vector<std::string> names,
         int repeat, const py::object& devices) {
        const FilterSpec spec = oneFilterOf(pipeline, static_cast<std::size_t>(x.size()));
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
      py::arg("x"), py::arg("pipeline"), py::arg("engines"), py::arg("repeat") = 10, py::arg("devices") = py::none());

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

  // What the recycling resources keep for later results goes back: pinned GPU results unpinned,
  // then the large pages unmapped (the arrays still held keep theirs).
  m.def("release_memory", [] {
    pinnedResultMemory()->dropKept();
    releaseKeptDeviceMemory();
    recycledLargePageResource().dropKept();
  });

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
