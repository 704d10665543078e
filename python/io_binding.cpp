#include "io_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstdint>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "siglab/io/channel_io.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_formats.hpp"
#include "siglab/io/signal_io.hpp"

namespace py = pybind11;

namespace siglab::python {
namespace {

FileFormat formatOf(const py::object& name) {
  if (name.is_none()) return FileFormat::automatic;
  const std::string text = name.cast<std::string>();
  const std::optional<FileFormat> format = signalFormatNamed(text);
  if (!format) {
    std::string known;
    for (const std::string_view n : signalFormatNames()) known += (known.empty() ? "" : ", ") + std::string(n);
    throw std::invalid_argument("format must be one of " + known + ", not \"" + text + "\"");
  }
  return *format;
}

SampleType sampleTypeNamed(const std::string& option, const std::string& name) {
  const std::optional<SampleType> type = parseSampleTypeName(name);
  if (!type) throw std::invalid_argument(option + " must be a sample type such as f64, f32, i16, not \"" + name + "\"");
  return *type;
}

// Refuses an option the reader or writer has not (a typo is never ignored).
void checkKnown(const py::dict& given, const std::set<std::string>& known, const char* function) {
  for (const auto& item : given) {
    const std::string name = item.first.cast<std::string>();
    if (!known.count(name)) {
      std::string list;
      for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
      throw py::type_error(std::string(function) + "() got an unexpected keyword argument '" + name + "' (it takes " +
                           list + ")");
    }
  }
}

ReadOptions readOptionsOf(const py::dict& o) {
  checkKnown(o, {"format", "column", "columns", "skip_header", "decimal", "raw", "offset", "raw_channels", "channel",
                 "allow_nonfinite", "rate", "dataset", "time_column", "resample_to", "edf_signals", "rate_attribute"},
             "siglab.read");
  ReadOptions r;
  if (o.contains("format")) r.format = formatOf(o["format"]);
  if (o.contains("column")) r.column = o["column"].cast<std::size_t>();
  if (o.contains("columns")) r.columns = o["columns"].cast<std::vector<std::size_t>>();
  if (o.contains("skip_header")) r.skipHeader = o["skip_header"].cast<bool>();
  if (o.contains("decimal")) {
    const std::string mark = o["decimal"].cast<std::string>();
    if (mark != "." && mark != ",") throw std::invalid_argument("decimal must be \".\" or \",\", not \"" + mark + "\"");
    r.decimal = mark[0];
  }
  if (o.contains("raw") && !o["raw"].is_none()) r.rawType = sampleTypeNamed("raw", o["raw"].cast<std::string>());
  if (o.contains("offset")) r.rawOffset = o["offset"].cast<std::uint64_t>();
  if (o.contains("raw_channels")) r.rawChannels = o["raw_channels"].cast<std::size_t>();
  if (o.contains("channel") && !o["channel"].is_none()) {
    r.channel = o["channel"].cast<std::size_t>();
    r.oneChannel = true;
  }
  if (o.contains("allow_nonfinite")) r.allowNonFinite = o["allow_nonfinite"].cast<bool>();
  if (o.contains("rate") && !o["rate"].is_none()) r.sampleRate = o["rate"].cast<double>();
  if (o.contains("dataset")) r.dataset = o["dataset"].cast<std::string>();
  if (o.contains("time_column")) r.timeColumn = o["time_column"].cast<std::size_t>();
  if (o.contains("resample_to") && !o["resample_to"].is_none()) r.resampleTo = o["resample_to"].cast<double>();
  if (o.contains("edf_signals")) r.edfSignals = o["edf_signals"].cast<std::vector<std::string>>();
  if (o.contains("rate_attribute")) r.rateAttribute = o["rate_attribute"].cast<std::string>();
  return r;
}

// (samples, rate, names): one channel as a 1-D array that owns core's samples; several as a
// channels x samples array.
py::tuple readFile(const std::string& path, const py::dict& options) {
  const ReadOptions read = readOptionsOf(options);
  Channels channels;
  {
    py::gil_scoped_release release;
    channels = readChannels(path, read);
  }
  py::array_t<double> samples;
  const std::size_t n = channels.frames();
  if (channels.channels.size() == 1) {
    auto* owner = new SampleVector(std::move(channels.channels.front()));
    py::capsule free(owner, [](void* p) { delete static_cast<SampleVector*>(p); });
    samples = py::array_t<double>({static_cast<py::ssize_t>(n)}, {sizeof(double)}, owner->data(), free);
  } else {
    samples = py::array_t<double>({static_cast<py::ssize_t>(channels.channels.size()), static_cast<py::ssize_t>(n)});
    double* data = samples.mutable_data();
    py::gil_scoped_release release;
    for (std::size_t c = 0; c < channels.channels.size(); ++c) {
      std::copy(channels.channels[c].begin(), channels.channels[c].end(), data + c * n);
      SampleVector().swap(channels.channels[c]);
    }
  }
  return py::make_tuple(samples, channels.sampleRate, channels.names);
}

WriteOptions writeOptionsOf(const py::dict& o) {
  checkKnown(o, {"format", "rate", "bits", "raw", "text", "dataset", "rate_attribute"}, "siglab.write");
  WriteOptions w;
  w.textStyle = TextStyle::shortest;  // every double reads back to itself
  if (o.contains("format")) w.format = formatOf(o["format"]);
  if (o.contains("rate") && !o["rate"].is_none()) w.sampleRate = o["rate"].cast<double>();
  if (o.contains("bits")) w.bits = o["bits"].cast<unsigned>();
  if (o.contains("raw")) w.rawType = sampleTypeNamed("raw", o["raw"].cast<std::string>());
  if (o.contains("text")) {
    const std::string style = o["text"].cast<std::string>();
    if (style != "shortest" && style != "seed") throw std::invalid_argument("text must be shortest or seed, not \"" + style + "\"");
    w.textStyle = style == "seed" ? TextStyle::seed : TextStyle::shortest;
  }
  if (o.contains("dataset")) w.dataset = o["dataset"].cast<std::string>();
  if (o.contains("rate_attribute")) w.rateAttribute = o["rate_attribute"].cast<std::string>();
  return w;
}

// Writes planar channels (channels x samples, C order) to `path` as the CLI writes an output:
// checked first (not one of `inputs`, a writable place), then atomically.
void writeFile(const std::string& path, const py::array_t<double, py::array::c_style>& channels, const py::dict& options,
               const std::vector<std::string>& inputs) {
  if (channels.ndim() != 2) throw std::invalid_argument("write takes channels x samples");
  const WriteOptions write = writeOptionsOf(options);
  const auto count = static_cast<std::size_t>(channels.shape(0));
  const auto n = static_cast<std::size_t>(channels.shape(1));
  std::vector<std::span<const double>> spans;
  for (std::size_t c = 0; c < count; ++c) spans.emplace_back(channels.data() + c * n, n);
  std::vector<NamedPath> inputPaths;
  for (const std::string& input : inputs) inputPaths.push_back({"input", input});
  const NamedPath outputs[] = {{"output", path}};
  py::gil_scoped_release release;
  checkOutputsBeforeWork(outputs, inputPaths);
  checkOutputHoldsChannels(path, write, count);
  writeChannels(path, spans, write);
}

}  // namespace

void bindSignalFiles(py::module_& m) {
  m.def("signal_formats", [] {
    std::vector<std::string> names;
    for (const std::string_view n : signalFormatNames()) names.emplace_back(n);
    return names;
  });
  m.def("read_file", &readFile, py::arg("path"), py::arg("options"));
  m.def("write_file", &writeFile, py::arg("path"), py::arg("channels"), py::arg("options"), py::arg("inputs"));
}

}  // namespace siglab::python
