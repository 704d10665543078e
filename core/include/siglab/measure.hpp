#pragma once
// Measuring, in one place: the CLI, the GUI, every engine comparison and every benchmark time
// work through measure(); no engine or ladder keeps a warm-up/repeat loop of its own.
#include <chrono>
#include <functional>

#include "siglab/progress.hpp"
#include "siglab/timing.hpp"

namespace siglab {

// One execution's phases, all from that same execution (never a kernel time from one run glued to
// the transfers of another). CPU work has no transfers: kernel == total.
struct PhaseTimes {
  double kernelMs = 0.0;
  double transferMs = 0.0;
  double totalMs = 0.0;
};

// The phases over the timed repeats.
struct PhaseStats {
  TimingStats kernel;
  TimingStats transfer;
  TimingStats total;
};

struct MeasureOptions {
  int warmups = 1;   // untimed executions first: first-touch pages, JIT, caches, GPU clocks
  int repeats = 10;  // timed executions (at least 1)
};

// The most timed executions a comparison takes (--repeat, Python's repeat=).
inline constexpr int kMaxRepeats = 100000;
// Throws std::invalid_argument unless 1 <= repeats <= kMaxRepeats and 0 <= warmups <= kMaxRepeats.
void validate(const MeasureOptions& options);

// Runs `once` options.warmups times, then options.repeats times, and summarises the phases each
// timed execution reported. Checks `progress` for cancellation between executions (throws
// Cancelled) and reports the fraction of executions done.
PhaseStats measure(const std::function<PhaseTimes()>& once, const MeasureOptions& options,
                   const Progress& progress = {});

// Wall-clock time of `work` on the calling thread, as one execution's phases (kernel == total).
template <class Work>
PhaseTimes timeOnHost(Work&& work) {
  const auto start = std::chrono::steady_clock::now();
  work();
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return PhaseTimes{ms, 0.0, ms};
}

}  // namespace siglab
