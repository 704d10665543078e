// Cancel stops a CPU engine inside its run within 100 ms, whatever the window (issue 16): the
// engines look at the flag between pieces of a few milliseconds of work, and the pieces change
// no bits.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <thread>
#include <vector>

#include "shared_helpers.hpp"
#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/measure.hpp"
#include "siglab/taps.hpp"

namespace siglab {
namespace {

constexpr double kStopLimitMs = 100.0;  // the bound from Cancel to the run's end

using test::randomSignal;

FilterSpec randomTaps(std::size_t w, std::uint64_t seed) {
  FilterSpec spec{randomSignal(w, seed), BoundaryMode::Zero};
  return spec;
}

struct StoppedRun {
  bool cancelled = false;  // the run threw Cancelled (it had not finished before the cancel)
  double stopMs = 0.0;     // from setting the flag to filter() returning
};

// Starts `engine` on a worker, sets the cancel flag `delay` later, and times how long the
// engine takes to notice and return.
StoppedRun cancelDuringRun(FilterBackend& engine, const std::vector<double>& in, const FilterSpec& spec,
                           std::chrono::milliseconds delay) {
  std::vector<double> out(in.size(), std::numeric_limits<double>::quiet_NaN());
  std::atomic<bool> flag{false};
  Progress progress;
  progress.cancelFlag = &flag;
  StoppedRun result;
  std::thread worker([&] {
    try {
      engine.filter(in, spec, out, RunOptions{}, progress);
    } catch (const Cancelled&) {
      result.cancelled = true;
    }
  });
  std::this_thread::sleep_for(delay);
  result.stopMs = timeOnHost([&] {
                    flag = true;
                    worker.join();  // blocking, so this thread takes no core from the engine
                  }).totalMs;
  return result;
}

TEST(Cancel, SerialAndParallelStopInsideAWideWindowsRunWithin100Ms) {
  // 2^20 outputs of 20001 taps: 2e10 multiply-adds, seconds of work on any machine.
  const std::vector<double> x = randomSignal(std::size_t{1} << 20, 1);
  const FilterSpec spec = randomTaps(20001, 2);
  CpuSerialBackend serial;
  CpuParallelBackend parallel;
  for (FilterBackend* engine : {static_cast<FilterBackend*>(&serial), static_cast<FilterBackend*>(&parallel)}) {
    const StoppedRun run = cancelDuringRun(*engine, x, spec, std::chrono::milliseconds(30));
    std::printf("%s, W 20001, 2^20 samples: stopped %.2f ms after Cancel\n", std::string(engine->name()).c_str(), run.stopMs);
    EXPECT_TRUE(run.cancelled) << engine->name() << " finished before the cancel: the test needs a longer run";
    EXPECT_LT(run.stopMs, kStopLimitMs) << engine->name();
  }
}

TEST(Cancel, CpuFftStopsBetweenItsBlocksWithin100Ms) {
  // 2^24 outputs in blocks of 131072 (W = 20001): its finite-sample scan alone (128 MB, one
  // thread) outlasts the 5 ms before Cancel on any machine, and the plans and blocks follow.
  const std::vector<double> x = randomSignal(std::size_t{1} << 24, 3);
  const FilterSpec spec = randomTaps(20001, 4);
  CpuFftBackend fft;
  const StoppedRun run = cancelDuringRun(fft, x, spec, std::chrono::milliseconds(5));
  std::printf("cpu-fft, W 20001, 2^24 samples: stopped %.2f ms after Cancel\n", run.stopMs);
  EXPECT_TRUE(run.cancelled) << "cpu-fft finished before the cancel: the test needs a longer run";
  EXPECT_LT(run.stopMs, kStopLimitMs);
}

TEST(Cancel, AnAlreadyCancelledRunStartsNoWork) {
  // cpu-running's pieces are 65536 O(1) outputs (well under a millisecond): a flag set before the
  // run is seen at its first piece, as one set during it is at the next.
  const std::vector<double> x = randomSignal(100'000, 5);
  std::atomic<bool> flag{true};
  Progress progress;
  progress.cancelFlag = &flag;
  CpuSerialBackend serial;
  CpuParallelBackend parallel;
  CpuRunningBackend running;
  CpuFftBackend fft;
  for (FilterBackend* engine : std::initializer_list<FilterBackend*>{&serial, &parallel, &running, &fft}) {
    std::vector<double> out(x.size(), std::numeric_limits<double>::quiet_NaN());
    EXPECT_THROW(engine->filter(x, makeMeanFilter(5), out, RunOptions{}, progress), Cancelled) << engine->name();
  }
}

// The pieces are cut by work (W = 4097: 255 outputs a piece), so signals of a few thousand
// samples cross several cuts; each output is still the plain loop's sum, bit for bit.
TEST(Cancel, WideWindowsCutIntoPiecesChangeNoBits) {
  const std::size_t w = 4097;
  const FilterSpec spec = randomTaps(w, 6);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, w - 2, 7 * std::size_t{255} + 5, std::size_t{9001}}) {
    const std::vector<double> x = randomSignal(n, 7 + n);
    std::vector<double> expected(n);
    const auto r = static_cast<std::int64_t>(w / 2);
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      double sum = 0.0;
      for (std::int64_t j = 0; j < static_cast<std::int64_t>(w); ++j) {
        const std::int64_t k = i - r + j;
        sum += spec.taps[static_cast<std::size_t>(j)] * (k >= 0 && k < static_cast<std::int64_t>(n) ? x[static_cast<std::size_t>(k)] : 0.0);
      }
      expected[static_cast<std::size_t>(i)] = sum;
    }
    std::vector<double> serial(n, std::numeric_limits<double>::quiet_NaN()), parallel = serial;
    filterSerial(x, spec, serial);
    filterParallel(x, spec, parallel);
    if (n == 0) continue;  // memcmp takes no null pointers, even for no bytes (UBSan)
    EXPECT_EQ(std::memcmp(serial.data(), expected.data(), n * sizeof(double)), 0) << "cpu-serial, n = " << n;
    EXPECT_EQ(std::memcmp(parallel.data(), expected.data(), n * sizeof(double)), 0) << "cpu-parallel, n = " << n;
  }
}

}  // namespace
}  // namespace siglab
