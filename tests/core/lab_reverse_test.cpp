// The reversal ladder's CPU side: the CPU rung against the definition, the check, and the access
// arithmetic against patterns worked out by hand.
#include <gtest/gtest.h>

#include "siglab/lab_reverse.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr std::size_t kAwkwardSizes[] = {1, 15, 17, 1000, 1023, 4097};

TEST(LabReverse, TheCpuRungReversesEveryAwkwardSize) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : kAwkwardSizes) {
    const std::vector<std::int32_t> in = randomReversalInput(n, seed + n);
    std::vector<std::int32_t> out(n, -1);
    const LadderRung rung = reverseOnCpu(in, out, MeasureOptions{1, 2});
    EXPECT_TRUE(rung.correct) << n << ": " << rung.result;
    EXPECT_EQ(rung.time.samples, 2);
    EXPECT_DOUBLE_EQ(rung.work, 8.0 * static_cast<double>(n));
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], in[n - 1 - i]) << "n=" << n << " i=" << i;
  }
}

TEST(LabReverse, TheCheckNamesTheFirstWrongIndex) {
  const std::vector<std::int32_t> in = {1, 2, 3, 4, 5};
  std::vector<std::int32_t> out = {5, 4, 3, 2, 1};
  LadderRung rung;
  checkReversal(in, out, rung);
  EXPECT_TRUE(rung.correct);
  EXPECT_EQ(rung.result, "exact");
  out[3] = -1;  // a poisoned output the kernel never wrote
  checkReversal(in, out, rung);
  EXPECT_FALSE(rung.correct);
  EXPECT_EQ(rung.result, "WRONG at index 3: -1, expected 2");
}

TEST(LabReverse, InputNeverHoldsThePoison) {
  for (std::int32_t v : randomReversalInput(100000, 7)) ASSERT_GE(v, 0);
}

TEST(LabReverse, AccessEfficiencyFollowsTheSectorArithmetic) {
  // n % 8 == 0: each warp's 128 bytes fill four whole sectors, loads and stores alike.
  AccessEfficiency e = reversalAccessEfficiency(ReversePattern::OneElementPerThread, 1 << 20);
  EXPECT_DOUBLE_EQ(e.load, 1.0);
  EXPECT_DOUBLE_EQ(e.store, 1.0);
  // n odd: the stores of a warp straddle five sectors: 128 bytes requested of 160 moved.
  e = reversalAccessEfficiency(ReversePattern::OneElementPerThread, (1 << 20) + 1);
  EXPECT_NEAR(e.load, 1.0, 1e-4);  // all but the last warp, which has one lane
  EXPECT_NEAR(e.store, 0.8, 1e-3);
  e = reversalAccessEfficiency(ReversePattern::SharedTile, 1 << 20);
  EXPECT_DOUBLE_EQ(e.store, 1.0);
  e = reversalAccessEfficiency(ReversePattern::Vector16, 1 << 20);
  EXPECT_DOUBLE_EQ(e.load, 1.0);
  EXPECT_DOUBLE_EQ(e.store, 1.0);
  // n % 4 != 0: four 4-byte loads a chunk, each instruction 128 bytes out of 512 (16 sectors, or
  // 17 where the span is not sector-aligned).
  e = reversalAccessEfficiency(ReversePattern::Vector16, (1 << 20) + 3);
  EXPECT_GE(e.load, 128.0 / (17 * 32));
  EXPECT_LE(e.load, 0.25);
  EXPECT_EQ(accessText({1.0, 0.8}), "load 100% / store 80%");
}

}  // namespace
}  // namespace siglab
