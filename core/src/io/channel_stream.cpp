#include "siglab/io/channel_stream.hpp"

#include <cstdint>
#include <filesystem>
#include <numeric>

#include "channel_readers.hpp"
#include "dataset_formats.hpp"
#include "signal_format.hpp"
#include "planar_frames.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/sample_rate.hpp"
#include "stream_readers.hpp"
#include "text_columns.hpp"
#include "time_column.hpp"

namespace siglab {

std::size_t ChannelStream::read(std::span<const std::span<double>> out) {
  if (out.size() != channels()) {
    throw std::invalid_argument("ChannelStream::read: " + std::to_string(channels()) + " channels expected, not " +
                                std::to_string(out.size()));
  }
  commonFrames(out, "ChannelStream::read");
  return readFrames(out);
}

namespace {

// Text columns, each through its own SampleStream (the text reader's windows, values and
// messages); one column, one number a line, and a WAV channel picked are a single such stream.
class ColumnStreams final : public ChannelStream {
 public:
  ColumnStreams(std::vector<std::unique_ptr<SampleStream>> columns, std::string path, std::optional<double> sampleRate,
                std::vector<std::string> names = {})
      : columns_(std::move(columns)), path_(std::move(path)), sampleRate_(sampleRate), names_(std::move(names)) {}

  std::size_t channels() const override { return columns_.size(); }
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    const std::size_t got = columns_.front()->read(out.front());
    for (std::size_t c = 1; c < columns_.size(); ++c) {
      if (columns_[c]->read(out[c].first(got)) != got) {
        throw InputError(path_, "the file changed while it was being read (another program is writing it): try again");
      }
    }
    return got;
  }
  std::optional<std::uint64_t> knownFrames() const override { return columns_.front()->knownSize(); }
  std::optional<double> sampleRate() const override { return sampleRate_ ? sampleRate_ : columns_.front()->sampleRate(); }
  double fractionRead() const override { return columns_.front()->fractionRead(); }
  std::vector<std::string> channelNames() const override { return names_; }

 private:
  std::vector<std::unique_ptr<SampleStream>> columns_;
  std::string path_;
  std::optional<double> sampleRate_;
  std::vector<std::string> names_;
};

// As libsndfile's WAV: more is a file read the wrong way round (a .npy of C x N), not a signal.
constexpr std::uint64_t kMaxChannels = 1024;

}  // namespace

std::unique_ptr<ChannelStream> openColumnStreams(std::vector<std::unique_ptr<SampleStream>> columns,
                                                 const std::string& path, std::optional<double> sampleRate) {
  return std::make_unique<ColumnStreams>(std::move(columns), path, sampleRate);
}

std::vector<std::size_t> channelsToKeep(const ReadOptions& options, std::uint64_t count, const std::string& path) {
  if (!options.oneChannel) {
    if (count > kMaxChannels) {
      throw InputError(path, "the file has " + std::to_string(count) + " channels, more than the " +
                                 std::to_string(kMaxChannels) + " SigLab reads at once (a .npy array is N frames x C "
                                 "channels: save arr.T); pick one channel");
    }
    std::vector<std::size_t> all(count);
    std::iota(all.begin(), all.end(), std::size_t{0});
    return all;
  }
  if (options.channel < 1 || options.channel > count) throw missingChannel(path, options.channel, count);
  return {options.channel - 1};
}

std::unique_ptr<ChannelStream> openTextColumns(const FileBytes& file, const std::string& pathGiven,
                                               const std::string& path, const ReadOptions& options,
                                               std::size_t windowBytes) {
  if (const std::size_t timeColumn = findTimeColumn(file.text(), options)) {
    return openTimedTextColumns(file, pathGiven, path, options, timeColumn, windowBytes);
  }
  return openPlainTextColumns(file, pathGiven, path, options, windowBytes);
}

std::unique_ptr<ChannelStream> openPlainTextColumns(const FileBytes& file, const std::string& pathGiven,
                                                    const std::string& path, const ReadOptions& options,
                                                    std::size_t windowBytes) {
  std::vector<std::size_t> columns = textColumnsToRead(file.text(), options, path);
  std::vector<std::unique_ptr<SampleStream>> streams;
  std::vector<std::size_t> kept;
  for (const std::size_t c : channelsToKeep(options, columns.size(), path)) {
    kept.push_back(columns[c]);
    ReadOptions one = options;
    one.format = FileFormat::text;
    one.column = columns[c];
    one.columns.clear();
    one.rawChannels = 1;
    one.oneChannel = false;  // the column is picked: a plain text stream
    one.timeColumn = kNoTimeColumn;
    one.resampleTo.reset();
    streams.push_back(openSampleStream(pathGiven, one, windowBytes));
  }
  return std::make_unique<ColumnStreams>(std::move(streams), path, options.sampleRate,
                                         textHeaderNames(file.text(), options, kept));
}

namespace {

// One channel of a ChannelStream, as a SampleStream.
class OneChannelStream final : public SampleStream {
 public:
  explicit OneChannelStream(std::unique_ptr<ChannelStream> in) : in_(std::move(in)) {}
  std::size_t read(std::span<double> out) override {
    const std::span<double> one[] = {out};
    return in_->read(one);
  }
  std::optional<std::uint64_t> knownSize() const override { return in_->knownFrames(); }
  std::optional<double> sampleRate() const override { return in_->sampleRate(); }
  double fractionRead() const override { return in_->fractionRead(); }

 private:
  std::unique_ptr<ChannelStream> in_;
};

}  // namespace

std::unique_ptr<SampleStream> openOneChannelStream(const std::string& path, const ReadOptions& options,
                                                   std::size_t windowBytes) {
  ReadOptions one = options;
  one.oneChannel = true;
  return oneChannelAsSamples(openChannelStream(path, one, windowBytes));
}

std::unique_ptr<SampleStream> oneChannelAsSamples(std::unique_ptr<ChannelStream> in) {
  return std::make_unique<OneChannelStream>(std::move(in));
}

std::unique_ptr<ChannelStream> openChannelStream(const std::string& pathGiven, const ReadOptions& options,
                                                 std::size_t windowBytes) {
  if (options.sampleRate) checkSampleRate(*options.sampleRate);
  if (options.rawChannels == 0) throw std::invalid_argument("a raw file has at least one channel");
  if (readsAsDataset(pathGiven, options)) return openDatasetChannelStream(pathGiven, options);
  auto file = std::make_unique<FileBytes>(pathGiven);
  const std::string path = pathGiven == "-" ? "standard input" : pathGiven;  // as FileBytes names it
  const SignalFormat& format = inputFormat(path, file->bytes(), options);
  return format.openChannels(std::move(file), StreamSource{pathGiven, path, windowBytes}, options);
}

std::size_t channelCount(const std::string& path, const ReadOptions& options) {
  if (options.oneChannel) return 1;
  return openChannelStream(path, options)->channels();
}

ChannelsInFile channelsInFile(const std::string& path, const ReadOptions& options) {
  std::error_code ignored;
  if (path == "-" || !std::filesystem::is_regular_file(path, ignored)) return {channelCount(path, options), {}, {}};
  const std::unique_ptr<ChannelStream> stream = openChannelStream(path, options);
  return {options.oneChannel ? 1 : stream->channels(), stream->channelNames(), stream->channelUnits()};
}

}  // namespace siglab
