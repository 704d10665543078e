// WAV (RIFF and RF64) through libsndfile: every channel, the file's own rate; written as 32-bit
// float (64-bit where a value needs it).
#include <cstdint>
#include <cstring>

#include "../channel_readers.hpp"
#include "../planar_frames.hpp"
#include "../signal_format.hpp"
#include "../stream_writers.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/sample_sink.hpp"

namespace siglab {
namespace {

// Planar blocks into the WAV sink, which takes frames interleaved (one channel: as they come).
class WavChannelSink final : public ChannelSink {
 public:
  WavChannelSink(const std::string& path, const WriteOptions& options, std::size_t channels)
      : sink_(openWavSink(path, options.sampleRate, options.durability, channels, options.bits == 64)),
        channels_(channels) {}

  std::size_t channels() const override { return channels_; }
  void writeFrames(std::span<const std::span<const double>> block) override {
    if (channels_ == 1) return sink_->write(block.front());
    const std::size_t frames = block.front().size();
    interleaved_.resize(frames * channels_);
    interleaveFrames(block, 0, frames, interleaved_.data());
    sink_->write(interleaved_);
  }
  void commit() override { sink_->commit(); }

 private:
  std::unique_ptr<SampleSink> sink_;
  std::size_t channels_;
  std::vector<double> interleaved_;
};

class WavFormat final : public SignalFormat {
 public:
  std::string_view name() const override { return "wav"; }
  std::string_view description() const override { return "WAV audio"; }
  std::vector<std::string_view> extensions() const override { return {".wav"}; }
  bool holdsChannels() const override { return true; }
  bool hasRate() const override { return true; }
  std::string saveFilter(std::size_t) const override { return "WAV, 32-bit float (*.wav)"; }
  bool recognises(Bytes head) const override {
    return head.size() >= 12 && (std::memcmp(head.data(), "RIFF", 4) == 0 || std::memcmp(head.data(), "RF64", 4) == 0) &&
           std::memcmp(head.data() + 8, "WAVE", 4) == 0;
  }

  Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
              const Progress& progress) const override {
    return parseWav(file.bytes(), path, options.channel, options.allowNonFinite, progress, options.hostMemory);
  }
  std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                            const ReadOptions& options) const override {
    return openWavStream(std::move(file), source.path, options.channel, options.allowNonFinite);
  }
  std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                              const ReadOptions& options) const override {
    const std::optional<WavShape> wav = wavShape(file->bytes());
    if (!options.oneChannel && wav && wav->channels > 1) {
      return openWavChannelStream(std::move(file), source.path, options.allowNonFinite, options.sampleRate);
    }
    std::vector<std::unique_ptr<SampleStream>> one;
    one.push_back(openWavStream(std::move(file), source.path, options.oneChannel ? options.channel : 1,
                                options.allowNonFinite));
    return openColumnStreams(std::move(one), source.path, options.sampleRate);
  }
  std::optional<std::vector<double>> readTail(const FileBytes& file, const std::string& path, const ReadOptions& options,
                                              std::size_t count) const override {
    return readWavTail(file, path, options.channel, count);
  }
  void probe(const FileBytes& file, std::string_view, FileProbe& probe) const override {
    const std::optional<WavShape> shape = wavShape(file.bytes());
    if (!shape) return;
    probe.wavChannels = shape->channels;
    if (shape->sampleRate > 0) probe.wavSampleRate = shape->sampleRate;
  }
  bool needsReadChoices(const FileProbe& probe) const override { return probe.wavChannels > 1; }

  bool writes() const override { return true; }
  std::vector<unsigned> sampleWidths() const override { return {32, 64}; }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t>) const override {
    checkHolds(path, channels, options);
    return std::make_unique<WavChannelSink>(path, options, channels);
  }
  void append(AtomicFileWriter& file, std::span<const std::span<const double>> channels, const WriteOptions& options,
              const Progress& progress) const override {
    checkHolds(file.path(), channels.size(), options);
    const bool wide = options.bits == 64;
    const std::vector<std::byte> bytes = channels.size() == 1
                                             ? encodeWavFloat(channels.front(), options.sampleRate, file.path(), 1, wide)
                                             : encodeWavFloat(channels, options.sampleRate, file.path(), wide);
    const std::string_view pieces[] = {{reinterpret_cast<const char*>(bytes.data()), bytes.size()}};
    appendPieces(file, pieces, progress);
  }
};

}  // namespace

const SignalFormat& wavFormat() {
  static const WavFormat format;
  return format;
}

}  // namespace siglab
