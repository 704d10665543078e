#include "siglab/io/file_probe.hpp"

#include "file_bytes.hpp"
#include "dataset_formats.hpp"
#include "siglab/io/sample_stream.hpp"
#include "signal_format.hpp"

namespace siglab {
namespace {

constexpr std::size_t kProbeBytes = 64 * 1024;

// The format whose magic bytes the file starts with; text (the fallback) otherwise. Never by
// extension: the probe is what the GUI asks before any option is chosen.
const SignalFormat& formatByContent(Bytes head) {
  for (const SignalFormat* format : signalFormats()) {
    if (format->recognises(head)) return *format;
  }
  return signalFormat(FileFormat::text);
}

}  // namespace

FileProbe probeSignalFile(const std::string& path) {
  if (isDatasetInput(path)) {  // HDF5/MAT: what it holds, listed by its library
    FileProbe probe;
    const DatasetFileKind kind = datasetFileKindOf(splitDatasetPath(path).file);
    probe.format = FileFormat(kind == DatasetFileKind::hdf5 ? "hdf5" : "mat");  // as registered
    probe.datasetFile = true;
    probe.datasets = listDatasets(path);
    probe.bytes = inputSizeBytes(path);
    return probe;
  }
  // Through the readers' own FileBytes: a pipe, a FIFO or standard input is read once into the
  // spool that every later reader of it in this process reads again, so probing consumes nothing.
  const FileBytes file(path);
  const std::string_view head = file.text().substr(0, kProbeBytes);
  FileProbe probe;
  probe.bytes = file.bytes().size();
  const SignalFormat& format = formatByContent(file.bytes());
  probe.format = format.id();
  format.probe(file, head, probe);
  return probe;
}

bool needsReadChoices(const FileProbe& probe) {
  if (probe.datasetFile) return probe.datasets.size() > 1;
  return signalFormat(probe.format).needsReadChoices(probe); }

ReadOptions suggestedReadOptions(const FileProbe& probe) {
  ReadOptions options;
  if (probe.datasetFile) {
    if (!probe.datasets.empty()) options.dataset = probe.datasets.front().name;
    return options;
  }
  signalFormat(probe.format).suggestReadOptions(probe, options);
  return options;
}

}  // namespace siglab
