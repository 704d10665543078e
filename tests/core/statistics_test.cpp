#include "siglab/statistics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <span>
#include <random>
#include <stdexcept>
#include <vector>

#include "siglab/neumaier_sum.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr double kUnit = 0x1p-53;

TEST(Statistics, SmallSignalByHand) {
  const std::vector<double> x = {1, 2, 3, 4};
  for (const Statistics& s : {statisticsSerial(x), statisticsParallel(x)}) {
    EXPECT_EQ(s.count, 4u);
    EXPECT_EQ(s.sum, 10.0);
    EXPECT_EQ(s.mean, 2.5);
    EXPECT_EQ(s.sumsq, 30.0);
    EXPECT_EQ(s.rms, std::sqrt(7.5));
    EXPECT_EQ(s.variance, 1.25);
    EXPECT_EQ(s.stddev, std::sqrt(1.25));
    EXPECT_EQ(s.min, 1.0);
    EXPECT_EQ(s.minIndex, 0u);
    EXPECT_EQ(s.max, 4.0);
    EXPECT_EQ(s.maxIndex, 3u);
  }
}

TEST(Statistics, TiesReportTheFirstIndex) {
  const std::vector<double> x = {3, 1, 1, 3, -0.5, -0.5};
  for (const Statistics& s : {statisticsSerial(x), statisticsParallel(x)}) {
    EXPECT_EQ(s.minIndex, 4u);
    EXPECT_EQ(s.maxIndex, 0u);
  }
}

TEST(Statistics, RangeSelectsSamplesAndIndicesCountFromTheSignalStart) {
  const std::vector<double> x = {9, 5, 7, 6, -9};
  for (const Statistics& s : {statisticsSerial(x, {1, 4}), statisticsParallel(x, {1, 4})}) {
    EXPECT_EQ(s.count, 3u);
    EXPECT_EQ(s.sum, 18.0);
    EXPECT_EQ(s.min, 5.0);
    EXPECT_EQ(s.minIndex, 1u);
    EXPECT_EQ(s.max, 7.0);
    EXPECT_EQ(s.maxIndex, 2u);
  }
  EXPECT_EQ(statisticsSerial(x, {3}).count, 2u);  // to the end
  EXPECT_EQ(statisticsSerial(x, {0, 5}).count, 5u);
}

TEST(Statistics, RangeBoundsAreChecked) {
  const std::vector<double> x = {1, 2, 3};
  EXPECT_THROW(statisticsSerial(x, {0, 4}), std::out_of_range);
  EXPECT_THROW(statisticsParallel(x, {2, 1}), std::out_of_range);
  EXPECT_THROW(statisticsSerial(x, {4}), std::out_of_range);
  try {
    selectRange(x, {1, 7});
    FAIL() << "no exception";
  } catch (const std::out_of_range& e) {
    EXPECT_STREQ(e.what(), "range end 7 is past the signal's 3 samples");
  }
}

TEST(Statistics, EmptyRangeHasCountZeroAndNaNs) {
  const std::vector<double> x = {1, 2, 3};
  for (const Statistics& s : {statisticsSerial(x, {2, 2}), statisticsParallel({}), statisticsSerial({})}) {
    EXPECT_EQ(s.count, 0u);
    EXPECT_EQ(s.sum, 0.0);
    EXPECT_TRUE(std::isnan(s.mean));
    EXPECT_TRUE(std::isnan(s.variance));
    EXPECT_TRUE(std::isnan(s.min));
  }
}

// References in long double (64-bit mantissa) with compensated sums, accurate to ~1e-35 here;
// the variance by the corrected two-pass formula. Products of doubles are exact in long double
// up to 2^-64 relative.
struct Reference {
  long double sum = 0, sumsq = 0, variance = 0, absSum = 0;
};

Reference longDoubleReference(const std::vector<double>& x) {
  BasicNeumaierSum<long double> sum, sumsq, absSum, deviations, squares;
  for (double v : x) {
    sum.add(v);
    sumsq.add(static_cast<long double>(v) * v);
    absSum.add(std::fabs(v));
  }
  const long double n = x.size(), mean = sum.value() / n;
  for (double v : x) {
    deviations.add(v - mean);
    squares.add((v - mean) * (v - mean));
  }
  return {sum.value(), sumsq.value(), (squares.value() - deviations.value() * deviations.value() / n) / n,
          absSum.value()};
}

long double maxAbsOf(const std::vector<double>& x) {
  double m = 0.0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

struct NamedSignal {
  std::string name;
  std::vector<double> values;
};

std::vector<NamedSignal> adversarialSignals(std::mt19937_64& rng) {
  std::vector<NamedSignal> signals;
  for (std::size_t n : {1u, 7u, 2047u, 2049u, 100003u, 1000003u}) {
    std::vector<double> offset = test::randomSignal(n, rng, 1e-3), alternating = test::randomSignal(n, rng, 1.0);
    for (double& v : offset) v += 1e9;
    for (std::size_t i = 0; i < n; ++i) alternating[i] += i % 2 ? -1e15 : 1e15;
    signals.push_back({"random N=" + std::to_string(n), test::randomSignal(n, rng)});
    signals.push_back({"1e9 offset + 1e-3 noise N=" + std::to_string(n), std::move(offset)});
    signals.push_back({"alternating +-1e15 N=" + std::to_string(n), std::move(alternating)});
    // Every block of the parallel pass starts on an outlier: its shift is as far off as it gets.
    std::vector<double> outlierStarts = test::randomSignal(n, rng, 1e-3);
    for (std::size_t i = 0; i < n; i += kStatisticsBlock) outlierStarts[i] = 1e12;
    signals.push_back({"1e12 at each block start N=" + std::to_string(n), std::move(outlierStarts)});
  }
  return signals;
}

TEST(Statistics, SerialReferenceIsCompensatedOnAdversarialData) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  for (const NamedSignal& signal : adversarialSignals(rng)) {
    const Statistics s = statisticsSerial(signal.values);
    const Reference r = longDoubleReference(signal.values);
    const long double n = signal.values.size();
    // Neumaier: about 2u |sum| plus a second-order term.
    EXPECT_LE(std::fabs(s.sum - r.sum), 3 * kUnit * std::fabs(r.sum) + n * n * kUnit * kUnit * r.absSum)
        << signal.name;
    EXPECT_LE(std::fabs(s.sumsq - r.sumsq), 3 * kUnit * r.sumsq) << signal.name;
    EXPECT_LE(std::fabs(s.variance - r.variance), 1e-13L * r.variance) << signal.name;
  }
}

TEST(Statistics, ParallelWithinItsStatedBoundsOfTheExactValues) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  for (const NamedSignal& signal : adversarialSignals(rng)) {
    const Statistics p = statisticsParallel(signal.values);
    const Statistics s = statisticsSerial(signal.values);
    const Reference r = longDoubleReference(signal.values);
    EXPECT_EQ(p.count, s.count);
    const long double n = signal.values.size(), maxAbs = maxAbsOf(signal.values);
    EXPECT_LE(std::fabs(p.sum - r.sum), kStatisticsSumBound * kUnit * (r.absSum + n * maxAbs)) << signal.name;
    EXPECT_LE(std::fabs(p.sumsq - r.sumsq), 8 * kStatisticsSumBound * kUnit * (r.sumsq + n * maxAbs * maxAbs))
        << signal.name;
    EXPECT_LE(std::fabs(p.variance - r.variance), kStatisticsVarianceRelativeBound * r.variance) << signal.name;
    EXPECT_EQ(p.min, s.min) << signal.name;
    EXPECT_EQ(p.minIndex, s.minIndex) << signal.name;
    EXPECT_EQ(p.max, s.max) << signal.name;
    EXPECT_EQ(p.maxIndex, s.maxIndex) << signal.name;
  }
}

// The three ways to compute statistics: the serial reference, the parallel pass and the streamed
// accumulator (fed in blocks of 1000, so that pieces of different magnitudes meet).
std::vector<Statistics> everyWay(const std::vector<double>& x) {
  StatisticsAccumulator streamed;
  for (std::size_t i = 0; i < x.size(); i += 1000) {
    streamed.add(std::span(x).subspan(i, std::min<std::size_t>(1000, x.size() - i)));
  }
  return {statisticsSerial(x), statisticsParallel(x), streamed.result()};
}

// Finite data gives finite, exact mean, rms and std whatever its magnitude (issue 24: 1e308, 1e308
// gave mean inf and std nan): the sums are scaled where they would overflow or their squares
// underflow. The sum, sum of squares and variance themselves are infinite when beyond float64.
TEST(Statistics, ExtremeMagnitudesGiveFiniteExactStatistics) {
  for (const Statistics& s : everyWay({1e308, 1e308})) {
    EXPECT_EQ(s.mean, 1e308);
    EXPECT_EQ(s.rms, 1e308);
    EXPECT_EQ(s.variance, 0.0);
    EXPECT_EQ(s.stddev, 0.0);
    EXPECT_EQ(s.sum, std::numeric_limits<double>::infinity());  // 2e308
    EXPECT_EQ(s.max, 1e308);
  }
  for (const Statistics& s : everyWay({1e308, -1e308})) {
    EXPECT_EQ(s.mean, 0.0);
    EXPECT_EQ(s.rms, 1e308);
    EXPECT_EQ(s.stddev, 1e308);
    EXPECT_EQ(s.variance, std::numeric_limits<double>::infinity());  // 1e616
  }
  for (const Statistics& s : everyWay({1e-200, 3e-200})) {
    EXPECT_DOUBLE_EQ(s.mean, 2e-200);
    EXPECT_DOUBLE_EQ(s.rms, std::sqrt(5.0) * 1e-200);  // its squares are below the smallest double
    EXPECT_DOUBLE_EQ(s.stddev, 1e-200);
  }
  // Long signals of both extremes, and one whose halves differ by 300 orders of magnitude, within
  // the stated bounds of long double references (whose range holds their squares).
  std::mt19937_64 rng(test::freshSeed());
  for (const double scale : {1e300, 1e-300, 0.0}) {
    std::vector<double> x = test::randomSignal(100003, rng);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] *= scale == 0.0 ? (i < x.size() / 2 ? 1.0 : 1e300) : scale;
    const Reference r = longDoubleReference(x);
    const long double n = x.size(), maxAbs = maxAbsOf(x);
    for (const Statistics& s : everyWay(x)) {
      SCOPED_TRACE("scale " + std::to_string(scale));
      EXPECT_LE(std::fabs(s.sum - r.sum), kStatisticsSumBound * kUnit * (r.absSum + n * maxAbs));
      EXPECT_LE(std::fabs(s.mean - r.sum / n), kStatisticsSumBound * kUnit * (r.absSum + n * maxAbs) / n);
      EXPECT_NEAR(static_cast<double>(s.rms / std::sqrt(r.sumsq / n)), 1.0, 1e-12);
      EXPECT_NEAR(static_cast<double>(s.stddev / std::sqrt(r.variance)), 1.0, 1e-10);
      ASSERT_TRUE(std::isfinite(s.stddev) && s.stddev > 0);
    }
  }
}

TEST(Statistics, ParallelRangeMatchesSerialRange) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(700001, rng);
  const SampleRange range{12345, 654321};
  const Statistics p = statisticsParallel(x, range), s = statisticsSerial(x, range);
  EXPECT_EQ(p.count, 654321u - 12345u);
  EXPECT_EQ(p.minIndex, s.minIndex);
  EXPECT_EQ(p.maxIndex, s.maxIndex);
  EXPECT_NEAR(p.mean, s.mean, 1e-12);
}

// The desktop's region statistics: the same pass with progress and cancel, the same bits.
TEST(Statistics, ParallelWithProgressGivesTheSameBitsAndStopsWhenCancelled) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(3'000'001, rng);
  const SampleRange range{17, 2'900'000};
  std::atomic<int> reports{0};
  std::atomic<bool> cancel{false};
  Progress progress;
  progress.cancelFlag = &cancel;
  progress.onProgress = [&reports](double fraction) {
    ASSERT_GT(fraction, 0.0);
    ASSERT_LE(fraction, 1.0);
    ++reports;
  };
  const Statistics with = statisticsParallel(x, range, progress), without = statisticsParallel(x, range);
  EXPECT_GT(reports.load(), 1) << "a report a piece";
  EXPECT_EQ(with.count, without.count);
  EXPECT_EQ(with.sum, without.sum);
  EXPECT_EQ(with.sumsq, without.sumsq);
  EXPECT_EQ(with.variance, without.variance);
  EXPECT_EQ(with.minIndex, without.minIndex);
  EXPECT_EQ(with.maxIndex, without.maxIndex);
  cancel = true;
  EXPECT_THROW(statisticsParallel(x, range, progress), Cancelled);
}

}  // namespace
}  // namespace siglab
