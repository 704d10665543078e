#pragma once
// Progress for work done in pieces: one part of a larger task, and a count of pieces finished on
// any number of threads.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "siglab/progress.hpp"

namespace siglab {

// The same cancel flag for one part of the work, whose fractions land in [from, to] of the whole.
inline Progress progressPart(const Progress& whole, double from, double to) {
  Progress part{{}, whole.cancelFlag};
  if (whole.onProgress) part.onProgress = [report = whole.onProgress, from, to](double f) { report(from + (to - from) * f); };
  return part;
}

// Work of `total` units done in pieces, on any number of threads at once: each finished piece adds
// its units and reports the fraction done so far (reports from several threads may cross; each is
// a true lower bound). Engines take pieces of about a millisecond, so a report and a look at the
// relaxed cancel flag per piece cost nothing measurable.
class WorkProgress {
 public:
  WorkProgress(const Progress& progress, std::uint64_t total) : progress_(progress), total_(total) {}
  bool cancelled() const { return progress_.cancelled(); }
  void throwIfCancelled() const { progress_.throwIfCancelled(); }
  void add(std::uint64_t units) {
    const std::uint64_t done = done_.fetch_add(units, std::memory_order_relaxed) + units;
    if (progress_.onProgress && total_ > 0) {
      progress_.report(std::min(1.0, static_cast<double>(done) / static_cast<double>(total_)));
    }
  }

 private:
  const Progress& progress_;
  std::uint64_t total_;
  std::atomic<std::uint64_t> done_{0};
};

// Runs `work(begin, end)` over [0, n) in stretches of a millisecond or so (2^18 elements), looking
// at Cancel between them: no pass over a long signal (a copy, a conversion, a comparison) holds
// up Cancel.
template <typename Work>
void inCancellableStretches(std::size_t n, const Progress& progress, Work&& work) {
  constexpr std::size_t kStretch = std::size_t{1} << 18;
  for (std::size_t begin = 0; begin < n; begin += kStretch) {
    progress.throwIfCancelled();
    work(begin, std::min(n, begin + kStretch));
  }
}

}  // namespace siglab
