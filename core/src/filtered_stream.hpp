#pragma once
// One stage of a streamed chain as a stream: reading it pulls blocks from the stage before,
// filters each with its halos (as streamFilterPlaced does into a sink) and hands out the outputs,
// so stage k reads stage k - 1's blocks and the chain makes one pass over the data.
#include <cstdint>
#include <optional>
#include <vector>

#include "siglab/filter_spec.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/progress.hpp"
#include "siglab/stream_filter.hpp"

namespace siglab::detail {

class FilteredStream final : public SampleStream {
 public:
  // `tail`: the signal's last radius samples, for wrap (a stage after the first has none: the
  // plan keeps such a chain in memory). `upstream` outlives this.
  FilteredStream(SampleStream& upstream, FilterSpec spec, PlacedBlockFilter filter, std::size_t blockSamples,
                 std::vector<double> tail, Progress cancel);

  std::size_t read(std::span<double> out) override;
  std::optional<std::uint64_t> knownSize() const override { return upstream_.knownSize(); }
  std::optional<double> sampleRate() const override { return upstream_.sampleRate(); }
  double fractionRead() const override { return upstream_.fractionRead(); }

 private:
  void start();
  void produce();  // fills outputs_ with the next outputs, or sets ended_
  void filterInto(std::size_t count);  // positions next_ - r .. next_ + count + r - 1 of padded_

  SampleStream& upstream_;
  FilterSpec spec_;
  PlacedBlockFilter filter_;
  std::size_t block_;
  std::size_t radius_;
  std::vector<double> tail_;
  Progress cancel_;
  bool started_ = false;
  bool upstreamEnded_ = false;
  bool ended_ = false;
  std::vector<double> head_;    // the signal's first radius + 1 samples
  std::vector<double> padded_;  // positions next_ - r onwards, read but not yet filtered past
  std::uint64_t next_ = 0;      // the next output's index
  std::vector<double> filtered_;  // the filter's block, halos included
  std::vector<double> outputs_;
  std::size_t handedOut_ = 0;
};

}  // namespace siglab::detail
