// The lab's GPU rungs against their CPU references on awkward sizes: every reversal exact, every
// product within the stated float32 bound of the float64 product, outputs poisoned before each rung.
#include <gtest/gtest.h>

#include "gpu_test_support.hpp"
#include "siglab/cuda_lab.hpp"
#include "siglab/lab_reverse.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr std::size_t kReverseSizes[] = {1, 3, 15, 17, 1000, 1023, 4097, (1 << 20) + 3, (1 << 20) + 256};
constexpr MatmulShape kShapes[] = {{1, 1, 1},      {15, 15, 15},  {17, 17, 17},   {1000, 1000, 68},   {1, 1023, 17},
                                   {1023, 1, 15},  {15, 17, 4097}, {129, 4097, 3}, {257, 130, 1023},   {64, 128, 8}};

TEST(GpuLab, WithoutAGpuTheRungsSayWhy) {
  if (test::firstDevice().available) GTEST_SKIP() << "a GPU is present";
  const std::vector<std::int32_t> in = randomReversalInput(17, 1);
  const GpuRungs reversal = runReversalOnGpu(in, MeasureOptions{0, 1});
  EXPECT_FALSE(reversal.problem.empty());
  EXPECT_TRUE(reversal.rungs.empty());
  const std::vector<float> a = randomMatrix(3, 4, 1), b = randomMatrix(4, 5, 2);
  const GpuRungs matmul = runMatmulOnGpu(a, b, {3, 5, 4}, MeasureOptions{0, 1});
  EXPECT_EQ(matmul.problem, reversal.problem);
  EXPECT_TRUE(matmul.rungs.empty());
}

TEST(GpuLab, EveryReversalRungIsExactOnAwkwardSizes) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  for (std::size_t n : kReverseSizes) {
    const std::vector<std::int32_t> in = randomReversalInput(n, seed + n);
    const GpuRungs gpu = runReversalOnGpu(in, MeasureOptions{1, 1});
    ASSERT_TRUE(gpu.problem.empty()) << gpu.problem;
    ASSERT_EQ(gpu.rungs.size(), 5u);
    EXPECT_EQ(gpu.rungs.back().kind, RungKind::Yardstick);
    for (const LadderRung& rung : gpu.rungs) {
      EXPECT_TRUE(rung.correct) << rung.name << " n=" << n << ": " << rung.result;
      EXPECT_GT(rung.time.medianMs, 0.0) << rung.name;
    }
  }
}

TEST(GpuLab, EveryMatmulRungIsWithinTheBoundOnAwkwardShapes) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  for (const MatmulShape& s : kShapes) {
    SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k));
    const std::vector<float> a = randomMatrix(s.m, s.k, seed), b = randomMatrix(s.k, s.n, seed + 1);
    const GpuRungs gpu = runMatmulOnGpu(a, b, s, MeasureOptions{0, 1});
    ASSERT_TRUE(gpu.problem.empty()) << gpu.problem;
    ASSERT_EQ(gpu.rungs.size(), 9u);
    int yardsticks = 0;
    for (const LadderRung& rung : gpu.rungs) yardsticks += rung.kind == RungKind::Yardstick;
    EXPECT_EQ(yardsticks, 1);
    for (const LadderRung& rung : gpu.rungs) {
      EXPECT_TRUE(rung.ran()) << rung.name << ": " << rung.problem;
      EXPECT_TRUE(rung.correct) << rung.name << ": " << rung.result;
    }
  }
}

}  // namespace
}  // namespace siglab
