// Every channel of a signal block by block in one pass (runChannelsStreamed, pipeline_steps.hpp).
// Memory stays bounded: the ChannelStream is read a block at a time and its planar block dealt
// out to one lane a channel; the channels' chains are read in turn, one output block each, so a
// lane holds at most about a block and the stages' histories ahead of its chain. As
// streamFilterPlaced, a reader thread reads ahead and a writer thread writes behind (three blocks
// each at most) while the chains filter. A chain with zero-phase sections (which read their whole
// input, spooled, before their first output) reads each channel alone instead: one pass a channel.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <thread>

#include "hand_off.hpp"
#include "pipeline_steps.hpp"
#include "rate_change.hpp"
#include "stage_streams.hpp"

namespace siglab::detail {
namespace {

using Planar = std::vector<std::vector<double>>;
constexpr int kBlocksInFlight = 3;  // read ahead, or waiting to be written

// The ChannelStream's planar blocks read on a thread of their own while the blocks before are
// filtered (streamFilterPlaced's reader thread); their buffers come back for reuse. An error of
// the stream's is thrown by next().
class BlockReader {
 public:
  BlockReader(ChannelStream& in, std::size_t blockFrames) : in_(in), block_(blockFrames) {
    for (int i = 0; i < kBlocksInFlight + 1; ++i) spares_.push(Planar(in.channels()));
    thread_ = std::thread([this] { run(); });
  }
  ~BlockReader() {
    blocks_.close();
    spares_.close();
    thread_.join();
  }
  // The next block (fewer frames only at the end); nullopt after the last.
  std::optional<Planar> next() {
    std::optional<Planar> block = blocks_.pop();
    if (!block && error_) std::rethrow_exception(error_);
    return block;
  }
  void giveBack(Planar block) { spares_.push(std::move(block)); }
  double fractionRead() const { return fraction_.load(); }

 private:
  void run() {
    try {
      std::vector<std::span<double>> spans;
      while (std::optional<Planar> block = spares_.pop()) {
        spans.clear();
        for (std::vector<double>& channel : *block) {
          channel.resize(block_);
          spans.emplace_back(channel);
        }
        const std::size_t got = in_.read(spans);
        fraction_.store(in_.fractionRead());
        for (std::vector<double>& channel : *block) channel.resize(got);
        if (got == 0 || !blocks_.push(std::move(*block)) || got < block_) break;
      }
    } catch (...) {
      error_ = std::current_exception();
    }
    blocks_.close();
  }

  ChannelStream& in_;
  std::size_t block_;
  HandOff<Planar> blocks_{kBlocksInFlight};
  HandOff<Planar> spares_{kBlocksInFlight + 1};
  std::atomic<double> fraction_{0.0};
  std::exception_ptr error_;
  std::thread thread_;
};

// The ChannelStream's blocks dealt out to one queue a channel, each read as a SampleStream.
class Lanes {
 public:
  Lanes(ChannelStream& in, std::size_t blockFrames)
      : knownFrames_(in.knownFrames()), sampleRate_(in.sampleRate()), reader_(in, blockFrames),
        queued_(in.channels()), fronts_(in.channels(), 0) {}

  // The next samples of channel c into `out`: as many as fit, fewer only at the end.
  std::size_t read(std::size_t c, std::span<double> out) {
    std::size_t done = 0;
    while (done < out.size()) {
      if (fronts_[c] == queued_[c].size() && !pull()) break;
      const std::size_t n = std::min(out.size() - done, queued_[c].size() - fronts_[c]);
      std::copy_n(queued_[c].begin() + static_cast<std::ptrdiff_t>(fronts_[c]), n, out.begin() + static_cast<std::ptrdiff_t>(done));
      fronts_[c] += n;
      done += n;
    }
    return done;
  }
  // The stream's, as it said before its reader started.
  std::optional<std::uint64_t> knownFrames() const { return knownFrames_; }
  std::optional<double> sampleRate() const { return sampleRate_; }
  double fractionRead() const { return reader_.fractionRead(); }

 private:
  // Appends the next block to every queue (dropping what every lane's reader has taken); false at the end.
  bool pull() {
    std::optional<Planar> block = reader_.next();
    if (!block) return false;
    for (std::size_t c = 0; c < queued_.size(); ++c) {
      std::vector<double>& q = queued_[c];
      q.erase(q.begin(), q.begin() + static_cast<std::ptrdiff_t>(fronts_[c]));
      fronts_[c] = 0;
      q.insert(q.end(), (*block)[c].begin(), (*block)[c].end());
    }
    reader_.giveBack(std::move(*block));
    return true;
  }

  std::optional<std::uint64_t> knownFrames_;
  std::optional<double> sampleRate_;
  BlockReader reader_;
  std::vector<std::vector<double>> queued_;
  std::vector<std::size_t> fronts_;  // per lane: the next sample of queued_ to hand out
};

class LaneStream final : public SampleStream {
 public:
  LaneStream(Lanes& lanes, std::size_t channel) : lanes_(lanes), channel_(channel) {}
  std::size_t read(std::span<double> out) override { return lanes_.read(channel_, out); }
  std::optional<std::uint64_t> knownSize() const override { return lanes_.knownFrames(); }
  std::optional<double> sampleRate() const override { return lanes_.sampleRate(); }
  double fractionRead() const override { return lanes_.fractionRead(); }

 private:
  Lanes& lanes_;
  std::size_t channel_;
};

// Collects the channels into `result`, replaced at commit (a run started over leaves nothing of the attempt before).
class VectorChannelSink final : public ChannelSink {
 public:
  VectorChannelSink(std::vector<SampleVector>& result, std::size_t channels, std::optional<std::uint64_t> frames)
      : result_(result), written_(channels) {
    if (frames) {
      for (SampleVector& v : written_) v.reserve(*frames);
    }
  }
  std::size_t channels() const override { return written_.size(); }
  void writeFrames(std::span<const std::span<const double>> block) override {
    for (std::size_t c = 0; c < block.size(); ++c) written_[c].insert(written_[c].end(), block[c].begin(), block[c].end());
  }
  void commit() override { result_ = std::move(written_); }

 private:
  std::vector<SampleVector>& result_;
  std::vector<SampleVector> written_;
};

// Planar blocks written into the sink on a thread of their own while the next block is filtered
// (streamFilterPlaced's writer thread), a few blocks at most in flight; their buffers come back
// for reuse. An error of the sink's is thrown by the next write() or finish().
class BlockWriter {
 public:
  BlockWriter(ChannelSink& sink, std::size_t channels, std::size_t blockFrames) : sink_(sink) {
    for (int i = 0; i < kBlocksInFlight + 1; ++i) spares_.push(Planar(channels, std::vector<double>(blockFrames)));
    thread_ = std::thread([this] { run(); });
  }
  ~BlockWriter() {  // an error on the filtering side: stop the writer, write nothing more
    blocks_.close();
    spares_.close();
    if (thread_.joinable()) thread_.join();
  }
  Planar spare() {
    std::optional<Planar> block = spares_.pop();
    if (!block) rethrow();
    return std::move(*block);
  }
  void write(Planar block) {
    if (!blocks_.push(std::move(block))) rethrow();
  }
  void finish() {  // every block written
    blocks_.close();
    thread_.join();
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void run() {
    try {
      std::vector<std::span<const double>> spans;
      while (std::optional<Planar> block = blocks_.pop()) {
        spans.assign(block->begin(), block->end());
        sink_.write(spans);
        spares_.push(std::move(*block));
      }
    } catch (...) {
      error_ = std::current_exception();
      blocks_.close();
      spares_.close();
    }
  }
  [[noreturn]] void rethrow() {
    thread_.join();
    if (error_) std::rethrow_exception(error_);
    throw std::logic_error("the block writer stopped");
  }

  ChannelSink& sink_;
  HandOff<Planar> blocks_{kBlocksInFlight};
  HandOff<Planar> spares_{kBlocksInFlight + 1};
  std::exception_ptr error_;
  std::thread thread_;
};

// One pass over every channel with one engine a stage; returns the frames written.
std::uint64_t runOnce(const BoundChain& chain, const ChannelEnds& ends, const std::vector<FilterBackend*>& engines,
                      const PipelineOptions& options, const PipelineObserver& observer,
                      std::vector<StreamedStages>& runs, PipelineReport& report) {
  const std::size_t count = chain.size(), channels = ends.lanes.size();
  const Progress cancelOnly{{}, observer.cancel};
  const Progress filtering = observer.phase("filtering");
  // Each channel's chain reads its share of one pass over the stream, unless a stage reads its whole
  // input first: then each reads the channel alone (another pass), so no lane queues a whole signal.
  const bool ownInputs = readsWholeInputFirst(chain);
  std::unique_ptr<ChannelStream> in;
  std::optional<Lanes> lanes;
  if (!ownInputs) {
    in = ends.open();
    lanes.emplace(*in, options.blockSamples);
  }
  std::vector<std::unique_ptr<SampleStream>> inputs;
  std::vector<StageStreams> stages;
  for (std::size_t c = 0; c < channels; ++c) {
    inputs.push_back(ownInputs ? ends.lanes[c].open() : std::make_unique<LaneStream>(*lanes, c));
    stages.push_back(buildStageStreams(chain, engines, runs[c], *inputs.back(), ends.lanes[c], count, options,
                                       cancelOnly, cancelOnly));
  }
  const auto fractionRead = [&] {
    double sum = 0.0;
    for (const auto& input : inputs) sum += input->fractionRead();
    return sum / static_cast<double>(channels);
  };
  if (observer.beforeOutput) observer.beforeOutput();
  const std::optional<std::uint64_t> knownFrames = stages.front().last->knownSize();
  const std::unique_ptr<ChannelSink> sink =
      ends.sink ? ends.sink(knownFrames, inputs.front()->sampleRate(), rateScale(chain, count))
                : std::make_unique<VectorChannelSink>(report.output, channels, knownFrames);
  std::uint64_t frames = 0;
  {
    BlockWriter writer(*sink, channels, options.blockSamples);
    for (;;) {
      Planar block = writer.spare();
      std::size_t got = 0;
      for (std::size_t c = 0; c < channels; ++c) {
        block[c].resize(options.blockSamples);
        const std::size_t n = stages[c].last->read(block[c]);
        if (c > 0 && n != got) throw std::logic_error("the channels' chains gave blocks of different sizes");
        got = n;
        block[c].resize(n);
      }
      if (got == 0) break;
      writer.write(std::move(block));
      frames += got;
      filtering.report(fractionRead());
    }
    writer.finish();
  }
  filtering.report(1.0);
  for (std::size_t c = 0; c < channels; ++c) tellSections(stages[c], runs[c]);
  bool passed = true;
  for (const StreamedStages& r : runs) {
    for (const ApplyResult& stage : r.results) passed = passed && stage.verification.passed();
  }
  if (passed) sink->commit();
  return frames;
}

}  // namespace

void runChannelsStreamed(const BoundChain& chain, const ChannelEnds& ends, const BackendList& engines,
                         const PipelineOptions& options, const PipelineObserver& observer, PipelineReport& report) {
  std::vector<StreamedStages> runs(ends.lanes.size(), streamedStages(chain, options, ends.name));
  const EngineAttempts attempts = runFallingBack(chain, engines, options, [&](const std::vector<FilterBackend*>& chosen) {
    report.samples = runOnce(chain, ends, chosen, options, observer, runs, report);
  });
  for (StreamedStages& channel : runs) reportStreamedChannel(chain, attempts, channel, options, observer, report);
}

}  // namespace siglab::detail
