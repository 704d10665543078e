// Raw little-endian samples of a type the reader names (--raw), channels interleaved; no rate.
#include "../channel_output.hpp"
#include "../channel_readers.hpp"
#include "../signal_format.hpp"
#include "binary_sink.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include <cstdint>

namespace siglab {
namespace {

BinaryLayout rawLayout(const FileBytes& file, const std::string& path, const ReadOptions& options) {
  return locateRawData(file.bytes().size(), path, options.rawType.value_or(SampleType::f64), options.rawOffset);
}

class RawFormat final : public SignalFormat {
 public:
  std::string_view name() const override { return "raw"; }
  std::string_view description() const override { return "Raw binary samples"; }
  std::vector<std::string_view> extensions() const override { return {".raw", ".bin"}; }
  bool holdsChannels() const override { return true; }
  bool hasRate() const override { return false; }
  std::string saveFilter(std::size_t channels) const override {
    return channels > 1 ? "Raw float64, interleaved (*.raw *.bin)" : "Raw float64 (*.raw *.bin)";
  }
  void checkChosenByExtension(const std::string& path) const override {
    throw InputError(path, "a raw binary file: name its sample type (--raw f64|f32|i16|i32)");
  }
  bool readsStreamsInPart() const override { return true; }

  Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
              const Progress& progress) const override {
    return Signal{parseRaw(file.bytes(), path, options.rawType.value_or(SampleType::f64), options.rawOffset,
                           options.allowNonFinite, progress, options.hostMemory),
                  std::nullopt, path};
  }
  std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                            const ReadOptions& options) const override {
    const BinaryLayout layout = rawLayout(*file, source.path, options);
    return openBinarySampleStream(std::move(file), source.path, layout, options.allowNonFinite);
  }
  std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                              const ReadOptions& options) const override {
    const std::string& path = source.path;
    const BinaryLayout layout = rawLayout(*file, path, options);
    if (layout.count % options.rawChannels != 0) {
      throw InputError(path, "the " + std::to_string(layout.count) + " samples are not a whole number of frames of " +
                                 std::to_string(options.rawChannels) + " channels (" +
                                 std::to_string(layout.count % options.rawChannels) + " samples left over)");
    }
    BinaryChannels shape{layout, options.rawChannels, false, channelsToKeep(options, options.rawChannels, path)};
    return openBinaryChannelStream(std::move(file), path, std::move(shape), options.allowNonFinite, options.sampleRate);
  }
  std::optional<std::vector<double>> readTail(const FileBytes& file, const std::string& path, const ReadOptions& options,
                                              std::size_t count) const override {
    return readBinaryTail(file, path, rawLayout(file, path, options), options.allowNonFinite, count);
  }

  bool writes() const override { return true; }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t> knownFrames) const override {
    checkHolds(path, channels, options);
    return openBinarySink(path, options.rawType, false, channels, knownFrames, options.durability);
  }
  void append(AtomicFileWriter& file, std::span<const std::span<const double>> channels, const WriteOptions& options,
              const Progress& progress) const override {
    checkHolds(file.path(), channels.size(), options);
    appendInterleaved(file, channels, options.rawType, progress);
  }
};

}  // namespace

const SignalFormat& rawFormat() {
  static const RawFormat format;
  return format;
}

}  // namespace siglab
