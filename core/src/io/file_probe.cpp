#include "siglab/io/file_probe.hpp"

#include "file_bytes.hpp"
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

bool needsReadChoices(const FileProbe& probe) { return signalFormat(probe.format).needsReadChoices(probe); }

ReadOptions suggestedReadOptions(const FileProbe& probe) {
  ReadOptions options;
  signalFormat(probe.format).suggestReadOptions(probe, options);
  return options;
}

}  // namespace siglab
