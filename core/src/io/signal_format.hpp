#pragma once
// One class per signal file format; every reader, writer, probe and file dialog asks the registry
// (format_list.cpp) instead of naming a format.
//
// How to add a format (e.g. HDF5):
//  1. Write core/src/io/formats/<name>_signal_format.cpp with a class deriving from SignalFormat:
//     its name ("hdf5"), description ("HDF5 dataset"), extensions ({".h5", ".hdf5"}), whether it
//     holds several channels and states a rate, recognises() (its magic bytes: detection is by
//     content first, by extension only when no format claims the bytes), and the readers and
//     writers below. Errors are InputError naming the file (and the variable, line, ...).
//  2. End that file with `const SignalFormat& hdf5Format() { static const Hdf5Format f; return f; }`
//     (inside namespace siglab).
//  3. Add one line `FORMAT(hdf5Format)` to SIGLAB_SIGNAL_FORMATS in format_list.cpp, and the .cpp to
//     core/CMakeLists.txt. Nothing else names the format: readSignal, readChannels, the streams,
//     the sinks, probeSignalFile, sessions (by name), the CLI's --format and the GUI's open/save
//     filters all come from the registry.
// Defaults below fit a format that cannot be written, has no cheaper tail read than streaming and
// is not mapped in place (the GUI then reads it once into a float64 cache).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "binary_layout.hpp"
#include "file_bytes.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/channel_sink.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/file_probe.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/io/signal_io.hpp"
#include "stream_readers.hpp"

namespace siglab {

// Where a stream reads from: the path as given ("-" for standard input, to open it again) and as
// messages name it ("standard input"), and the bytes resident at a time.
struct StreamSource {
  std::string pathGiven;
  std::string path;
  std::size_t windowBytes = std::size_t{32} << 20;
};

// How the GUI's mapped view reads a file in place; neither: through the float64 cache.
struct MappedLayout {
  std::optional<BinaryLayout> samples;       // samples of one channel lying in the file (f64 maps directly)
  std::optional<WavDataLayout> wavFrames;    // WAV frames converted as read (WavFrameReader)
};

class SignalFormat {
 public:
  virtual ~SignalFormat() = default;

  // --- What it is.
  virtual std::string_view name() const = 0;         // FileFormat's name: options, sessions, --format
  virtual std::string_view description() const = 0;  // for dialogs: "WAV audio"
  virtual std::vector<std::string_view> extensions() const = 0;  // lower case with the dot; the first for saving
  virtual bool holdsChannels() const = 0;            // one file holds several channels
  virtual bool hasRate() const = 0;                  // the file states its sample rate
  FileFormat id() const { return FileFormat(name()); }
  // The GUI's open filters ("WAV audio (*.wav)"); text splits into lines and CSV.
  virtual std::vector<std::string> openFilters() const;
  // The save filter for `channels` channels, empty where this format cannot write them.
  virtual std::string saveFilter(std::size_t channels) const;

  // --- Detection.
  virtual bool recognises(Bytes head) const { (void)head; return false; }  // its magic bytes
  // Read because of its extension alone (no format claimed the bytes): raw refuses without a type.
  virtual void checkChosenByExtension(const std::string& path) const { (void)path; }
  // A stream (pipe) of this format may be read only in part (text, raw); else it is read whole.
  virtual bool readsStreamsInPart() const { return false; }

  // --- Reading (options.channel is 1-based; every error an InputError naming the file).
  // One channel in memory, as readSignal returns it (options.oneChannel is not set here).
  virtual Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
                      const Progress& progress) const = 0;
  // The same block by block.
  virtual std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                                    const ReadOptions& options) const = 0;
  // Every channel (or options.channel alone with options.oneChannel) block by block.
  virtual std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                                      const ReadOptions& options) const = 0;
  // The last `count` samples of openSamples' channel where cheaper than streaming; nullopt: stream.
  virtual std::optional<std::vector<double>> readTail(const FileBytes& file, const std::string& path,
                                                      const ReadOptions& options, std::size_t count) const;
  virtual MappedLayout mappedLayout(const FileBytes& file, const std::string& path, const ReadOptions& options) const;
  // What the first bytes say for probeSignalFile, and the choices a reader must make.
  virtual void probe(const FileBytes& file, std::string_view head, FileProbe& probe) const;
  virtual bool needsReadChoices(const FileProbe& probe) const { (void)probe; return false; }
  virtual void suggestReadOptions(const FileProbe& probe, ReadOptions& options) const { (void)probe; (void)options; }

  // --- Writing (the file appears at commit only; see channel_sink.hpp).
  virtual bool writes() const { return false; }
  // The sample widths WriteOptions::bits may choose (its default, 0, is always allowed).
  virtual std::vector<unsigned> sampleWidths() const { return {}; }
  // What a user should know of the file written with `options` (FLAC: quantised), or empty.
  virtual std::string writeNote(const WriteOptions& options) const { (void)options; return {}; }
  // Refuses, before any work, what it cannot write: `channels` channels, a sample width it lacks
  // (InputError naming `path`). Sinks and append check it again.
  void checkHolds(const std::string& path, std::size_t channels, const WriteOptions& options) const;
  virtual void checkChannels(const std::string& path, std::size_t channels) const;
  virtual std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options,
                                                std::size_t channels, std::optional<std::uint64_t> knownFrames) const;
  // Planar `channels` (one or more, the same length) appended to `file` whole.
  virtual void append(AtomicFileWriter& file, std::span<const std::span<const double>> channels,
                      const WriteOptions& options, const Progress& progress) const;
};

// Every registered format, in the order dialogs list them (format_list.cpp).
std::span<const SignalFormat* const> signalFormats();
// The registered format named `format` (InputError-free: std::invalid_argument for an unknown name).
const SignalFormat& signalFormat(FileFormat format);
const SignalFormat* findSignalFormat(std::string_view name);
// The format readSignal reads `path` in: the options' choice, raw where rawType is set, a format
// recognising the bytes, else one by extension, else text.
const SignalFormat& inputFormat(const std::string& path, Bytes bytes, const ReadOptions& options);
// The format a writer uses: the options' choice, else by extension, else text.
const SignalFormat& outputFormat(const std::string& path, const WriteOptions& options);
// The extension of `path`, lower case with its dot (".wav"), or empty.
std::string lowerExtension(const std::string& path);

}  // namespace siglab
