#pragma once
// GPU work too long for one launch or copy, cut into parts of a few milliseconds: Cancel is seen
// between parts (within about a part's time, not after the whole kernel), and progress is reported
// as parts finish. Each part computes the outputs it would have in one launch: the same bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <cstdint>

#include "cuda_check.hpp"
#include "event_timer.hpp"
#include "siglab/progress.hpp"

namespace siglab::cuda {

// Samples a copy part moves: 32 MiB of float64, a few milliseconds over PCIe.
inline constexpr std::int64_t kCopyPartSamples = std::int64_t{1} << 22;

// How far a run has got in units of its own choosing (samples copied, outputs computed), reported
// as a share of `total`; parts running on several host threads may add at once.
class WorkShare {
 public:
  WorkShare(const Progress& progress, std::uint64_t total) : progress_(progress), total_(std::max<std::uint64_t>(total, 1)) {}
  const Progress& progress() const { return progress_; }
  void add(std::uint64_t units) {
    const std::uint64_t done = done_.fetch_add(units) + units;
    progress_.report(std::min(1.0, static_cast<double>(done) / static_cast<double>(total_)));
  }

 private:
  const Progress& progress_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
};

// Runs queue(begin, end) for the parts [begin, end) of [first, last), `step` items each, in order on
// `stream`. The next part is queued before the one before it is waited for, so the device does not
// idle between parts. As each part finishes, adds its items times `unitsPerItem` to `work`; at a
// cancel, waits for what is queued (the buffers stay valid until then) and throws Cancelled.
template <class Queue>
void runInParts(StreamView stream, std::int64_t first, std::int64_t last, std::int64_t step, WorkShare& work,
                std::uint64_t unitsPerItem, const Queue& queue) {
  work.progress().throwIfCancelled();
  Event finished[2];
  std::int64_t items[2] = {0, 0};
  int k = 0;
  const auto waitFor = [&](int part) {
    SIGLAB_CUDA_TRY(cudaEventSynchronize(finished[part % 2].get()));
    work.add(static_cast<std::uint64_t>(items[part % 2]) * unitsPerItem);
  };
  for (std::int64_t begin = first; begin < last; begin += step, ++k) {
    const std::int64_t end = std::min(last, begin + step);
    queue(begin, end);
    finished[k % 2].record(stream);
    items[k % 2] = end - begin;
    if (k > 0) waitFor(k - 1);
    if (work.progress().cancelled()) {
      SIGLAB_CUDA_TRY(cudaEventSynchronize(finished[k % 2].get()));
      throw Cancelled();
    }
  }
  if (k > 0) waitFor(k - 1);
}

}  // namespace siglab::cuda
