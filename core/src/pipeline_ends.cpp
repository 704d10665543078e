#include "pipeline_ends.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "io/dataset_formats.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/channel_io.hpp"

namespace siglab::detail {
namespace {

// The output's rate: the input's times the chain's rate change.
std::optional<double> scaledRate(std::optional<double> rate, double scale) {
  return rate ? std::optional(*rate * scale) : std::nullopt;
}

class SpanStream final : public SampleStream {
 public:
  explicit SpanStream(std::span<const double> samples) : samples_(samples) {}
  std::size_t read(std::span<double> out) override {
    const std::size_t n = std::min(out.size(), samples_.size() - next_);
    std::copy_n(samples_.begin() + static_cast<std::ptrdiff_t>(next_), n, out.begin());
    next_ += n;
    return n;
  }
  std::optional<std::uint64_t> knownSize() const override { return samples_.size(); }
  double fractionRead() const override {
    return samples_.empty() ? 1.0 : static_cast<double>(next_) / static_cast<double>(samples_.size());
  }

 private:
  std::span<const double> samples_;
  std::size_t next_ = 0;
};

// Collects into `result`, replaced at commit (a run started over leaves nothing of the attempt before).
class VectorSink final : public SampleSink {
 public:
  // `size`, where known, reserved at once: growing 80 MB by doubling copied and faulted it in again
  // and again (3x the filter's time from Python, 10M samples).
  VectorSink(SampleVector& result, std::optional<std::uint64_t> size) : result_(result) {
    if (size) written_.reserve(*size);
  }
  void write(std::span<const double> values) override { written_.insert(written_.end(), values.begin(), values.end()); }
  void commit() override { result_ = std::move(written_); }

 private:
  SampleVector& result_;
  SampleVector written_;
};

// Writes into the caller's span from its start (a run started over writes it again from there).
class SpanSink final : public SampleSink {
 public:
  explicit SpanSink(std::span<double> into) : into_(into) {}
  void write(std::span<const double> values) override {
    if (values.size() > into_.size() - next_) throw std::logic_error("a streamed run wrote past the result's length");
    std::copy(values.begin(), values.end(), into_.begin() + static_cast<std::ptrdiff_t>(next_));
    next_ += values.size();
  }
  void commit() override {}

 private:
  std::span<double> into_;
  std::size_t next_ = 0;
};

std::vector<double> lastSamples(std::span<const double> samples, std::size_t count) {
  const std::size_t n = std::min(count, samples.size());
  return {samples.end() - static_cast<std::ptrdiff_t>(n), samples.end()};
}

// A streamed output is not flushed to disk before the rename (as cp, dd or numpy.save do not):
// still atomic (a reader sees the old file or the whole new one, a failure leaves the old one),
// but a power cut soon after may lose it. Measured on 2 GiB raw to raw: the fsync made the run
// 1.5-2.5x slower (1.6-2.5 s against 0.95-1.15 s; cp 0.9-1.3 s), and starting the write-back
// early (sync_file_range every 16 MiB) slower still (3.2-6 s). Uncached: an output streamed
// because it does not fit in memory is not kept there either (see writeSome for figures).
std::unique_ptr<SampleSink> openStreamedFile(const FileSink& sink, double sampleRate, std::optional<std::uint64_t> size) {
  WriteOptions write = sink.write;
  write.durability = Durability::uncached;
  write.sampleRate = sampleRate;
  return openSampleSink(sink.path, write, size);
}

}  // namespace

StreamEnds memoryEnds(std::span<const double> channel, SampleVector& result, const std::string& name) {
  StreamEnds ends;
  ends.open = [channel] { return std::make_unique<SpanStream>(channel); };
  ends.sink = [&result](std::optional<std::uint64_t> size, std::optional<double>, double) {
    return std::make_unique<VectorSink>(result, size);
  };
  ends.tail = [channel](std::size_t count) { return lastSamples(channel, count); };
  ends.name = name;
  return ends;
}

StreamEnds memoryIntoEnds(std::span<const double> channel, std::span<double> into, const std::string& name) {
  SampleVector unused;
  StreamEnds ends = memoryEnds(channel, unused, name);
  ends.sink = [into](std::optional<std::uint64_t>, std::optional<double>, double) { return std::make_unique<SpanSink>(into); };
  return ends;
}

StreamEnds memoryToFileEnds(std::span<const double> channel, const FileSink& sink, std::optional<double> sampleRate,
                            const std::string& name) {
  SampleVector unused;
  StreamEnds ends = memoryEnds(channel, unused, name);
  ends.sink = [sink, sampleRate](std::optional<std::uint64_t> size, std::optional<double>, double rateScale) {
    return openStreamedFile(sink, scaledRate(sampleRate, rateScale).value_or(sink.write.sampleRate), size);
  };
  return ends;
}

StreamEnds fileEnds(const FileSource& source, const PipelineSink& sink, SampleVector& result) {
  StreamEnds ends;
  ends.open = [source] { return openSampleStream(source.path, source.read); };
  if (const auto* file = std::get_if<FileSink>(&sink)) {
    // --rate names the rate of any input (a WAV's own included), as readSignal takes it.
    ends.sink = [file = *file, source](std::optional<std::uint64_t> size, std::optional<double> streamRate,
                                                double rateScale) {
      const std::optional<double> rate = scaledRate(source.read.sampleRate ? source.read.sampleRate : streamRate, rateScale);
      return openStreamedFile(file, rate.value_or(file.write.sampleRate), size);
    };
  } else {
    ends.sink = [&result](std::optional<std::uint64_t> size, std::optional<double>, double) {
      return std::make_unique<VectorSink>(result, size);
    };
  }
  ends.tail = [source](std::size_t count) { return readSignalTail(source.path, source.read, count); };
  ends.name = source.path;
  return ends;
}

ReadChannels readSource(const FileSource& source, std::size_t channels, const Progress& progress) {
  ReadChannels read;
  if (channels > 1) {
    Channels all = readChannels(source.path, source.read, progress);
    read.sampleRate = all.sampleRate;
    read.names = std::move(all.names);
    read.channels = std::move(all.channels);
    return read;
  }
  Signal signal = readSignal(source.path, source.read, progress);
  read.sampleRate = signal.sampleRate;
  read.channels.push_back(std::move(signal.samples));
  return read;
}

FileSource oneChannelOf(const FileSource& source, std::size_t channel) {
  FileSource one = source;
  one.read.oneChannel = true;
  one.read.channel = channel + 1;
  return one;
}

ChannelEnds fileChannelEnds(const FileSource& source, std::size_t channels, const PipelineSink& sink) {
  ChannelEnds ends;
  ends.open = [source] { return openChannelStream(source.path, source.read); };
  for (std::size_t c = 0; c < channels; ++c) {
    SampleVector unused;  // only the lane's open and tail are used
    ends.lanes.push_back(fileEnds(oneChannelOf(source, c), MemorySink{}, unused));
    ends.lanes.back().sink = nullptr;
  }
  if (const auto* file = std::get_if<FileSink>(&sink)) {
    ends.sink = [file = *file, source, channels](std::optional<std::uint64_t> frames, std::optional<double> streamRate,
                                                          double rateScale) {
      WriteOptions write = file.write;
      write.durability = Durability::uncached;  // as openStreamedFile
      write.sampleRate = scaledRate(source.read.sampleRate ? source.read.sampleRate : streamRate, rateScale)
                             .value_or(file.write.sampleRate);
      return openChannelSink(file.path, write, channels, frames);
    };
  }
  ends.name = source.path;
  return ends;
}

namespace {

// Channels in memory as a ChannelStream.
class SpanChannelStream final : public ChannelStream {
 public:
  SpanChannelStream(std::vector<std::span<const double>> channels, std::optional<double> rate)
      : channels_(std::move(channels)), rate_(rate) {}
  std::size_t channels() const override { return channels_.size(); }
  std::optional<std::uint64_t> knownFrames() const override { return channels_.front().size(); }
  std::optional<double> sampleRate() const override { return rate_; }
  double fractionRead() const override {
    const std::size_t frames = channels_.front().size();
    return frames == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(frames);
  }

 protected:
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    const std::size_t n = std::min(out.front().size(), channels_.front().size() - next_);
    for (std::size_t c = 0; c < channels_.size(); ++c) {
      std::copy_n(channels_[c].begin() + static_cast<std::ptrdiff_t>(next_), n, out[c].begin());
    }
    next_ += n;
    return n;
  }

 private:
  std::vector<std::span<const double>> channels_;
  std::optional<double> rate_;
  std::size_t next_ = 0;
};

}  // namespace

ChannelEnds memoryChannelEnds(std::span<const std::span<const double>> channels, const FileSink& sink,
                              std::optional<double> sampleRate, const std::string& name) {
  ChannelEnds ends;
  std::vector<std::span<const double>> spans(channels.begin(), channels.end());
  ends.open = [spans, sampleRate] { return std::make_unique<SpanChannelStream>(spans, sampleRate); };
  for (const std::span<const double> channel : channels) {
    SampleVector unused;
    ends.lanes.push_back(memoryEnds(channel, unused, name));
    ends.lanes.back().sink = nullptr;
  }
  ends.sink = [sink, sampleRate, count = channels.size()](std::optional<std::uint64_t> frames, std::optional<double>,
                                                           double rateScale) {
    WriteOptions write = sink.write;
    write.durability = Durability::uncached;
    write.sampleRate = scaledRate(sampleRate, rateScale).value_or(sink.write.sampleRate);
    return openChannelSink(sink.path, write, count, frames);
  };
  ends.name = name;
  return ends;
}

void writeSink(const FileSink& sink, std::span<const SampleVector> channels, std::optional<double> sampleRate,
               const Progress& progress) {
  WriteOptions write = sink.write;
  write.sampleRate = sampleRate.value_or(write.sampleRate);
  if (isDatasetOutput(sink.path, write)) {  // HDF5/MAT: written by their library, into a temporary all the same
    std::vector<std::span<const double>> spans(channels.begin(), channels.end());
    return writeChannels(sink.path, spans, write, progress);
  }
  OutputSet files;
  AtomicFileWriter& file = files.add(sink.path, Durability::flushed, DirectOutput::spooled);
  if (channels.size() == 1) {
    appendSignal(file, channels.front(), write, progress);
  } else {
    std::vector<std::span<const double>> spans(channels.begin(), channels.end());
    appendChannels(file, spans, write, progress);
  }
  files.commit();
}

}  // namespace siglab::detail

namespace siglab {
SourceChannels readPipelineSource(const FileSource& source, const Progress& progress) {
  return detail::readSource(source, channelCount(source.path, source.read), progress);
}
}  // namespace siglab
