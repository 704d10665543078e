#include "siglab/io/channel_sink.hpp"

#include <stdexcept>
#include <vector>

#include "channel_output.hpp"
#include "dataset_formats.hpp"
#include "planar_frames.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/sample_sink.hpp"
#include "stream_writers.hpp"

namespace siglab {

void ChannelSink::write(std::span<const std::span<const double>> block) {
  if (block.size() != channels()) {
    throw std::invalid_argument("ChannelSink::write: " + std::to_string(channels()) + " channels expected, not " +
                                std::to_string(block.size()));
  }
  commonFrames(block, "ChannelSink::write");
  writeFrames(block);
}

namespace {

// One channel: the SampleSink of writeSignal's bytes.
class OneChannelSink final : public ChannelSink {
 public:
  explicit OneChannelSink(std::unique_ptr<SampleSink> sink) : sink_(std::move(sink)) {}
  std::size_t channels() const override { return 1; }
  void writeFrames(std::span<const std::span<const double>> block) override { sink_->write(block.front()); }
  void commit() override { sink_->commit(); }

 private:
  std::unique_ptr<SampleSink> sink_;
};

// Several channels into one spooled atomic file: raw and .npy interleaved (the .npy header of
// N x C fixed up at commit when N was not known), CSV one line a frame, WAV through its sink.
class FramesSink final : public ChannelSink {
 public:
  FramesSink(const std::string& path, const WriteOptions& options, std::size_t channels,
             std::optional<std::uint64_t> knownFrames)
      : format_(channelOutputFormat(path, options)), options_(options), channels_(channels), knownFrames_(knownFrames) {
    if (format_ == FileFormat::wav) {
      wav_ = openWavSink(path, options.sampleRate, options.durability, channels);
      return;
    }
    if (format_ == FileFormat::text || format_ == FileFormat::automatic) requireTextHolds(path, channels);
    if (format_ == FileFormat::raw && options.rawType != SampleType::f64 && options.rawType != SampleType::f32) {
      throw std::invalid_argument("raw output is f64 or f32, not " + std::string(sampleTypeName(options.rawType)));
    }
    file_ = std::make_unique<AtomicFileWriter>(path, options.durability, DirectOutput::spooled);
    if (format_ == FileFormat::npy) file_->append(npyHeader(knownFrames.value_or(0), channels));
  }

  std::size_t channels() const override { return channels_; }
  void writeFrames(std::span<const std::span<const double>> block) override {
    const std::size_t frames = block.front().size();
    frames_ += frames;
    switch (format_) {
      case FileFormat::wav:
        interleaved_.resize(frames * channels_);
        interleaveFrames(block, 0, frames, interleaved_.data());
        return wav_->write(interleaved_);
      case FileFormat::npy: return appendInterleaved(*file_, block, SampleType::f64);
      case FileFormat::raw: return appendInterleaved(*file_, block, options_.rawType);
      case FileFormat::text:
      case FileFormat::automatic: break;
    }
    appendCsvLines(*file_, block, options_.textStyle);
  }
  void commit() override {
    if (wav_) return wav_->commit();
    if (format_ == FileFormat::npy && knownFrames_ != frames_) {
      const std::string header = npyHeader(frames_, channels_);
      if (header.size() != npyHeader(0, channels_).size()) throw std::logic_error("the .npy header changed size");
      file_->writeAt(0, header);
    }
    file_->commit();
  }

 private:
  FileFormat format_;
  WriteOptions options_;
  std::size_t channels_;
  std::optional<std::uint64_t> knownFrames_;
  std::uint64_t frames_ = 0;
  std::unique_ptr<AtomicFileWriter> file_;
  std::unique_ptr<SampleSink> wav_;
  std::vector<double> interleaved_;
};

}  // namespace

std::unique_ptr<ChannelSink> openChannelSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                             std::optional<std::uint64_t> knownFrames) {
  if (channels == 0) throw std::invalid_argument("openChannelSink: no channels");
  if (auto dataset = openDatasetSink(path, options, channels)) return dataset;
  if (channels == 1) return std::make_unique<OneChannelSink>(openSampleSink(path, options, knownFrames));
  return std::make_unique<FramesSink>(path, options, channels, knownFrames);
}

}  // namespace siglab
