// NumPy .npy: 1-D, or N frames x C channels in C or Fortran order; no rate.
#include <cstdint>
#include <cstring>

#include "../channel_readers.hpp"
#include "../channel_output.hpp"
#include "../signal_format.hpp"
#include "binary_sink.hpp"
#include "siglab/io/binary_formats.hpp"

namespace siglab {
namespace {

class NpyFormat final : public SignalFormat {
 public:
  std::string_view name() const override { return "npy"; }
  std::string_view description() const override { return "NumPy"; }
  std::vector<std::string_view> extensions() const override { return {".npy"}; }
  bool holdsChannels() const override { return true; }
  bool hasRate() const override { return false; }
  std::string saveFilter(std::size_t channels) const override {
    return channels > 1 ? "NumPy, N x C (*.npy)" : "NumPy (*.npy)";
  }
  bool recognises(Bytes head) const override { return head.size() >= 6 && std::memcmp(head.data(), "\x93NUMPY", 6) == 0; }

  Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
              const Progress& progress) const override {
    return Signal{parseNpy(file.bytes(), path, options.allowNonFinite, progress, options.hostMemory), std::nullopt, path};
  }
  std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                            const ReadOptions& options) const override {
    const BinaryLayout layout = locateNpyData(file->bytes(), source.path);
    return openBinarySampleStream(std::move(file), source.path, layout, options.allowNonFinite);
  }
  std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                              const ReadOptions& options) const override {
    const NpyArray array = locateNpyArray(file->bytes(), source.path);
    BinaryChannels shape{array.data, array.columns, array.fortran, channelsToKeep(options, array.columns, source.path)};
    return openBinaryChannelStream(std::move(file), source.path, std::move(shape), options.allowNonFinite,
                                   options.sampleRate);
  }
  std::optional<std::vector<double>> readTail(const FileBytes& file, const std::string& path, const ReadOptions& options,
                                              std::size_t count) const override {
    return readBinaryTail(file, path, locateNpyData(file.bytes(), path), options.allowNonFinite, count);
  }

  bool writes() const override { return true; }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t> knownFrames) const override {
    checkHolds(path, channels, options);
    return openBinarySink(path, SampleType::f64, true, channels, knownFrames, options.durability);
  }
  void append(AtomicFileWriter& file, std::span<const std::span<const double>> channels, const WriteOptions& options,
              const Progress& progress) const override {
    checkHolds(file.path(), channels.size(), options);
    const std::size_t frames = channels.front().size();
    if (channels.size() > 1) {
      file.append(npyHeader(frames, channels.size()));
      return appendInterleaved(file, channels, SampleType::f64, progress);
    }
    const std::string header = npyHeader(frames);
    const std::string_view pieces[] = {header, {reinterpret_cast<const char*>(channels.front().data()), frames * sizeof(double)}};
    appendPieces(file, pieces, progress);
  }
};

}  // namespace

const SignalFormat& npyFormat() {
  static const NpyFormat format;
  return format;
}

}  // namespace siglab
