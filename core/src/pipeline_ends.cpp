#include "pipeline_ends.hpp"

#include <algorithm>
#include <stdexcept>

#include "siglab/io/atomic_file.hpp"

namespace siglab::detail {
namespace {

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
  ends.sink = [&result](std::optional<std::uint64_t> size, std::optional<double>) {
    return std::make_unique<VectorSink>(result, size);
  };
  ends.tail = [channel](std::size_t count) { return lastSamples(channel, count); };
  ends.name = name;
  return ends;
}

StreamEnds memoryIntoEnds(std::span<const double> channel, std::span<double> into, const std::string& name) {
  SampleVector unused;
  StreamEnds ends = memoryEnds(channel, unused, name);
  ends.sink = [into](std::optional<std::uint64_t>, std::optional<double>) { return std::make_unique<SpanSink>(into); };
  return ends;
}

StreamEnds memoryToFileEnds(std::span<const double> channel, const FileSink& sink, std::optional<double> sampleRate,
                            const std::string& name) {
  SampleVector unused;
  StreamEnds ends = memoryEnds(channel, unused, name);
  ends.sink = [sink, sampleRate](std::optional<std::uint64_t> size, std::optional<double>) {
    return openStreamedFile(sink, sampleRate.value_or(sink.write.sampleRate), size);
  };
  return ends;
}

StreamEnds fileEnds(const FileSource& source, const PipelineSink& sink, SampleVector& result) {
  StreamEnds ends;
  ends.open = [source] { return openSampleStream(source.path, source.read); };
  if (const auto* file = std::get_if<FileSink>(&sink)) {
    // --rate names the rate of any input (a WAV's own included), as readSignal takes it.
    ends.sink = [file = *file, source](std::optional<std::uint64_t> size, std::optional<double> streamRate) {
      return openStreamedFile(file, source.read.sampleRate.value_or(streamRate.value_or(file.write.sampleRate)), size);
    };
  } else {
    ends.sink = [&result](std::optional<std::uint64_t> size, std::optional<double>) {
      return std::make_unique<VectorSink>(result, size);
    };
  }
  ends.tail = [source](std::size_t count) { return readSignalTail(source.path, source.read, count); };
  ends.name = source.path;
  return ends;
}

ReadChannels readSource(const FileSource& source, const Progress& progress) {
  Signal signal = readSignal(source.path, source.read, progress);
  ReadChannels read;
  read.sampleRate = signal.sampleRate;
  read.channels.push_back(std::move(signal.samples));
  return read;
}

void writeSink(const FileSink& sink, std::span<const SampleVector> channels, std::optional<double> sampleRate,
               const Progress& progress) {
  if (channels.size() != 1) {
    throw StageError(sink.path + ": " + std::to_string(channels.size()) + " channels: files hold one channel so far");
  }
  WriteOptions write = sink.write;
  write.sampleRate = sampleRate.value_or(write.sampleRate);
  OutputSet files;
  appendSignal(files.add(sink.path, Durability::flushed, DirectOutput::spooled), channels.front(), write, progress);
  files.commit();
}

}  // namespace siglab::detail

namespace siglab {
SourceChannels readPipelineSource(const FileSource& source, const Progress& progress) {
  return detail::readSource(source, progress);
}
}  // namespace siglab
