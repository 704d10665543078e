#include <gtest/gtest.h>

#include <atomic>

#include "siglab/measure.hpp"

namespace siglab {
namespace {

TEST(Measure, WarmupsAreRunButNotCounted) {
  int calls = 0;
  const PhaseStats stats = measure(
      [&] {
        ++calls;
        // The warm-up reports an outlier that must not reach the statistics.
        return calls == 1 ? PhaseTimes{1000.0, 1000.0, 1000.0} : PhaseTimes{double(calls), 0.5, double(calls) + 0.5};
      },
      MeasureOptions{1, 4});
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(stats.kernel.samples, 4);
  EXPECT_DOUBLE_EQ(stats.kernel.minMs, 2.0);
  EXPECT_DOUBLE_EQ(stats.kernel.maxMs, 5.0);
  EXPECT_DOUBLE_EQ(stats.kernel.medianMs, 3.5);
  EXPECT_DOUBLE_EQ(stats.transfer.medianMs, 0.5);
  EXPECT_DOUBLE_EQ(stats.total.medianMs, 4.0);
}

TEST(Measure, PhasesComeFromTheSameExecution) {
  int calls = 0;
  const PhaseStats stats = measure(
      [&] {
        ++calls;
        return PhaseTimes{double(calls), 10.0 * calls, 11.0 * calls};
      },
      MeasureOptions{0, 3});
  EXPECT_DOUBLE_EQ(stats.kernel.medianMs, 2.0);
  EXPECT_DOUBLE_EQ(stats.transfer.medianMs, 20.0);
  EXPECT_DOUBLE_EQ(stats.total.medianMs, 22.0);
}

TEST(Measure, AtLeastOneTimedRunAndCancellationStopsBetweenRuns) {
  int calls = 0;
  measure([&] { return ++calls, PhaseTimes{}; }, MeasureOptions{0, 0});
  EXPECT_EQ(calls, 1);

  std::atomic<bool> cancel{false};
  Progress progress;
  progress.cancelFlag = &cancel;
  calls = 0;
  EXPECT_THROW(measure(
                   [&] {
                     if (++calls == 2) cancel = true;
                     return PhaseTimes{};
                   },
                   MeasureOptions{1, 10}, progress),
               Cancelled);
  EXPECT_EQ(calls, 2);
}

TEST(Measure, TimeOnHostReportsNoTransfers) {
  volatile int sink = 0;
  const PhaseTimes t = timeOnHost([&] { for (int i = 0; i < 1000; ++i) sink = sink + i; });
  EXPECT_GE(t.kernelMs, 0.0);
  EXPECT_EQ(t.transferMs, 0.0);
  EXPECT_EQ(t.kernelMs, t.totalMs);
}

}  // namespace
}  // namespace siglab
