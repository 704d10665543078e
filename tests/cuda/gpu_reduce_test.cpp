// The reduction ladder against CPU sums: integer sums exact (64-bit accumulation, sizes where a
// 32-bit sum would overflow), float64 sums within the summation error bound of the compensated sum.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "gpu_test_support.hpp"
#include "siglab/cuda_reduce.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr std::size_t kAwkwardSizes[] = {0, 1, 3, 511, 513, 4099, 65537, 1000003};

TEST(CompensatedSum, RecoversWhatANaiveSumLoses) {
  const std::vector<double> values = {1.0, 1e100, 1.0, -1e100};
  EXPECT_EQ(compensatedSum(values), 2.0);
}

TEST(GpuReduce, IntegerSumsAreExactOnEveryRung) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> dist(std::numeric_limits<std::int32_t>::min(),
                                                   std::numeric_limits<std::int32_t>::max());
  for (std::size_t n : kAwkwardSizes) {
    std::vector<std::int32_t> values(n);
    for (auto& v : values) v = dist(rng);
    const ReductionLadder ladder = runReductionLadder(values, 1);
    ASSERT_TRUE(ladder.problem.empty()) << ladder.problem;
    ASSERT_EQ(ladder.steps.size(), 8u);
    for (const ReductionStep& step : ladder.steps) {
      EXPECT_TRUE(step.exact) << step.name << " n=" << n << ": " << step.integerValue << " vs "
                              << ladder.integerReference;
    }
  }
}

TEST(GpuReduce, IntegerSumOfSquaresIsExact) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int32_t> dist(-65536, 65535);
  for (std::size_t n : kAwkwardSizes) {
    std::vector<std::int32_t> values(n);
    for (auto& v : values) v = dist(rng);
    const ReductionLadder ladder = runReductionLadder(values, 1);
    ASSERT_TRUE(ladder.problem.empty()) << ladder.problem;
    EXPECT_TRUE(ladder.sumOfSquares.exact) << "n=" << n << ": " << ladder.sumOfSquares.integerValue << " vs "
                                           << ladder.integerSumOfSquaresReference;
  }
}

TEST(GpuReduce, Float64SumsAreWithinTheSummationErrorBound) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::size_t n : kAwkwardSizes) {
    const std::vector<double> values = test::randomSignal(n, rng);
    double absSum = 0, squareSum = 0;
    for (double v : values) {
      absSum += std::fabs(v);
      squareSum += v * v;
    }
    // Any summation order: |error| <= (n - 1) * eps * sum |x| (to first order); 2x for safety.
    const double eps = std::numeric_limits<double>::epsilon();
    const double bound = 2.0 * static_cast<double>(n) * eps * absSum;
    const ReductionLadder ladder = runReductionLadder(values, 1);
    ASSERT_TRUE(ladder.problem.empty()) << ladder.problem;
    for (const ReductionStep& step : ladder.steps) {
      EXPECT_LE(step.absError, bound) << step.name << " n=" << n;
      EXPECT_FALSE(std::isnan(step.value)) << step.name;
    }
    EXPECT_LE(ladder.sumOfSquares.absError, 2.0 * static_cast<double>(n) * eps * squareSum) << "n=" << n;
  }
}

TEST(GpuReduce, TimingsAndThroughputAreMeasured) {
  SIGLAB_SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> values = test::randomSignal(1 << 20, rng);
  const ReductionLadder ladder = runReductionLadder(values, 3);
  ASSERT_TRUE(ladder.problem.empty()) << ladder.problem;
  for (const ReductionStep& step : ladder.steps) {
    EXPECT_EQ(step.time.samples, 3) << step.name;
    EXPECT_GT(step.time.medianMs, 0.0) << step.name;
    EXPECT_GT(step.gbPerSecond, 0.0) << step.name;
  }
}

TEST(GpuReduce, WithoutAGpuTheLadderSaysWhy) {
  if (test::firstDevice().available) GTEST_SKIP() << "a GPU is present";
  const std::vector<double> values = {1, 2, 3};
  const ReductionLadder ladder = runReductionLadder(values, 1);
  EXPECT_FALSE(ladder.problem.empty());
  EXPECT_TRUE(ladder.steps.empty());
}

}  // namespace
}  // namespace siglab
