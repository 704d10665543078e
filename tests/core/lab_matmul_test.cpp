// The matrix-multiply ladder's CPU side: both CPU rungs against the float64 product within the
// stated bound on awkward and non-square shapes, and the check itself catching wrong outputs.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "siglab/lab_matmul.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr MatmulShape kShapes[] = {{1, 1, 1},      {15, 15, 15}, {17, 17, 17},  {1, 1000, 17},  {1000, 1, 15},
                                   {15, 17, 1023}, {17, 4097, 3}, {33, 15, 4097}, {1023, 17, 15}};

std::vector<std::int64_t> allRows(const MatmulShape& shape) { return matmulRowsToCheck(shape, shape.m); }

TEST(LabMatmul, BothCpuRungsAreWithinTheBoundOnAwkwardShapes) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  for (const MatmulShape& s : kShapes) {
    SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k));
    const std::vector<float> a = randomMatrix(s.m, s.k, seed), b = randomMatrix(s.k, s.n, seed + 1);
    for (bool blocked : {false, true}) {
      std::vector<float> c(static_cast<std::size_t>(s.m * s.n), std::numeric_limits<float>::quiet_NaN());
      if (blocked) matmulBlocked(a.data(), b.data(), c.data(), s, s.m);
      else matmulSerial(a.data(), b.data(), c.data(), s, s.m);
      LadderRung rung;
      checkMatmul(a, b, c, s, allRows(s), rung);
      EXPECT_TRUE(rung.correct) << (blocked ? "blocked: " : "serial: ") << rung.result;
      EXPECT_EQ(allRows(s).size(), static_cast<std::size_t>(s.m));
    }
  }
}

TEST(LabMatmul, TheCpuRungsTimeAndCheckThemselves) {
  const MatmulShape s{100, 37, 53};
  const std::vector<float> a = randomMatrix(s.m, s.k, 3), b = randomMatrix(s.k, s.n, 4);
  for (bool blocked : {false, true}) {
    const LadderRung rung = matmulOnCpu(blocked, a, b, s, MeasureOptions{1, 2});
    EXPECT_TRUE(rung.correct) << rung.result;
    EXPECT_EQ(rung.time.samples, 2);
    EXPECT_DOUBLE_EQ(rung.work, matmulFlops(s));
  }
}

TEST(LabMatmul, TheCheckCatchesAWrongOrUnwrittenOutput) {
  const MatmulShape s{15, 17, 33};
  const std::vector<float> a = randomMatrix(s.m, s.k, 5), b = randomMatrix(s.k, s.n, 6);
  std::vector<float> c(static_cast<std::size_t>(s.m * s.n));
  matmulSerial(a.data(), b.data(), c.data(), s, s.m);
  // Just past the bound of one output: the float64 product plus twice the bound.
  double exact = 0.0, magnitude = 0.0;
  for (std::int64_t p = 0; p < s.k; ++p) {
    exact += double(a[7 * s.k + p]) * b[p * s.n + 3];
    magnitude += std::fabs(double(a[7 * s.k + p]) * b[p * s.n + 3]);
  }
  std::vector<float> wrong = c;
  wrong[7 * s.n + 3] = static_cast<float>(exact + 2.0 * matmulErrorFactor(s.k) * magnitude + 1e-6);
  LadderRung rung;
  checkMatmul(a, b, wrong, s, allRows(s), rung);
  EXPECT_FALSE(rung.correct);
  EXPECT_NE(rung.result.find("C[7][3]"), std::string::npos) << rung.result;
  wrong = c;
  wrong.back() = std::numeric_limits<float>::quiet_NaN();
  checkMatmul(a, b, wrong, s, allRows(s), rung);
  EXPECT_FALSE(rung.correct);
}

TEST(LabMatmul, TheBoundIsGammaKOfBothPrecisions) {
  const double k = 1000.0, u32 = std::ldexp(1.0, -24), u64 = std::ldexp(1.0, -53);
  EXPECT_DOUBLE_EQ(matmulErrorFactor(1000), k * u32 / (1 - k * u32) + k * u64 / (1 - k * u64));
}

TEST(LabMatmul, LargeProductsAreCheckedOnSpreadRows) {
  const std::vector<std::int64_t> rows = matmulRowsToCheck({4096, 4096, 4096}, 4096);
  ASSERT_EQ(rows.size(), 64u);
  EXPECT_EQ(rows.front(), 0);
  EXPECT_EQ(rows.back(), 4095);
  EXPECT_EQ(matmulRowsToCheck({4096, 4096, 4096}, 5).size(), 5u);  // a CPU rung's band
}

TEST(LabMatmul, InputsAreNeverZero) {
  for (float v : randomMatrix(300, 300, 9)) ASSERT_NE(v, 0.0f);
}

}  // namespace
}  // namespace siglab
