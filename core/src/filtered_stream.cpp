#include "filtered_stream.hpp"

#include <algorithm>

#include "handed_outputs.hpp"
#include "stream_halo.hpp"

namespace siglab::detail {

FilteredStream::FilteredStream(SampleStream& upstream, FilterSpec spec, PlacedBlockFilter filter,
                               std::size_t blockSamples, std::vector<double> tail, Progress cancel)
    : upstream_(upstream),
      spec_(std::move(spec)),
      filter_(std::move(filter)),
      block_(std::max<std::size_t>(blockSamples, 1)),
      radius_(spec_.radius()),
      tail_(std::move(tail)),
      cancel_(std::move(cancel)) {}

std::size_t FilteredStream::read(std::span<double> out) {
  std::size_t filled = 0;
  while (filled < out.size()) {
    if (handedOut_ == outputs_.size()) {
      if (ended_) break;
      produce();
      continue;
    }
    filled = handOut(outputs_, handedOut_, out, filled);
  }
  return filled;
}

// As streamFilterPlaced: a signal that fits in the first fill is filtered whole with its own
// boundary rule; a longer one gets its left halo through the rule from its first samples.
void FilteredStream::start() {
  started_ = true;
  const std::size_t r = radius_;
  const std::size_t firstFill = block_ + 2 * r + 2;
  std::vector<double> first = readUpTo(upstream_, firstFill);
  if (first.size() < firstFill) {
    outputs_.assign(first.size(), 0.0);
    filter_(first, spec_, outputs_, BlockPlace{0, 0, first.size(), true});
    handedOut_ = 0;
    ended_ = true;
    return;
  }
  head_.assign(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(r + 1));
  padded_.reserve(block_ + 2 * r);
  for (std::int64_t k = -static_cast<std::int64_t>(r); k < 0; ++k) padded_.push_back(leftHaloSample(k, spec_.mode, head_, tail_));
  padded_.insert(padded_.end(), first.begin(), first.end());
}

void FilteredStream::filterInto(std::size_t count) {
  const std::size_t r = radius_;
  filtered_.resize(count + 2 * r);  // kept from block to block: a fresh one would cost its page faults each time
  filter_(std::span<const double>(padded_).first(count + 2 * r), spec_, filtered_, BlockPlace{next_, r, count, false});
  outputs_.assign(filtered_.begin() + static_cast<std::ptrdiff_t>(r), filtered_.begin() + static_cast<std::ptrdiff_t>(r + count));
  handedOut_ = 0;
  next_ += count;
}

void FilteredStream::produce() {
  cancel_.throwIfCancelled();
  if (!started_) {
    start();
    if (ended_) return;
  }
  const std::size_t r = radius_;
  const std::size_t want = block_ + 2 * r;
  while (padded_.size() < want && !upstreamEnded_) {  // a short read means the end
    const std::size_t had = padded_.size();
    padded_.resize(want);
    const std::size_t got = upstream_.read(std::span<double>(padded_).subspan(had));
    padded_.resize(had + got);
    if (got == 0) upstreamEnded_ = true;
  }
  if (padded_.size() >= want) {
    filterInto(block_);
    padded_.erase(padded_.begin(), padded_.begin() + static_cast<std::ptrdiff_t>(block_));  // keeps the 2r the next block reads
    return;
  }
  // The end: positions N .. N + r - 1 through the boundary rule, now that N is known.
  const std::int64_t extStart = static_cast<std::int64_t>(next_) - static_cast<std::int64_t>(r);
  const std::int64_t n = extStart + static_cast<std::int64_t>(padded_.size());
  for (std::int64_t k = n; k < n + static_cast<std::int64_t>(r); ++k) {
    const std::int64_t source = boundaryIndex(k, n, spec_.mode);
    if (source == kSkipSample) {
      padded_.push_back(0.0);
    } else if (source >= extStart) {
      padded_.push_back(padded_[static_cast<std::size_t>(source - extStart)]);
    } else {
      padded_.push_back(head_[static_cast<std::size_t>(source)]);  // wrap: the signal's first samples
    }
  }
  filterInto(static_cast<std::size_t>(n) - static_cast<std::size_t>(next_));
  padded_.clear();
  ended_ = true;
}

}  // namespace siglab::detail
