#include "siglab/boundary.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace siglab {
namespace {

// Builds the extended signal by literally unfolding it, one step at a time, as scipy's docs draw it.
std::int64_t unfoldSlowly(std::int64_t k, std::int64_t n, BoundaryMode mode) {
  if (mode == BoundaryMode::Zero) return k >= 0 && k < n ? k : kSkipSample;
  if (mode == BoundaryMode::Nearest) return k < 0 ? 0 : (k >= n ? n - 1 : k);
  while (k < 0 || k >= n) {
    switch (mode) {
      case BoundaryMode::Wrap: k = k < 0 ? k + n : k - n; break;
      case BoundaryMode::Reflect: k = k < 0 ? -k - 1 : 2 * n - 1 - k; break;
      case BoundaryMode::Mirror:
        if (n == 1) return 0;
        k = k < 0 ? -k : 2 * n - 2 - k;
        break;
      default: break;
    }
  }
  return k;
}

TEST(BoundaryIndex, InsideIsIdentityForEveryMode) {
  for (auto mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror, BoundaryMode::Nearest,
                    BoundaryMode::Wrap}) {
    for (std::int64_t k = 0; k < 7; ++k) EXPECT_EQ(boundaryIndex(k, 7, mode), k);
  }
}

TEST(BoundaryIndex, MatchesTheDrawnPatternsForFourSamples) {
  // Positions -3..-1 and 4..6 of "a b c d" (0..3), as in the table in boundary.hpp.
  const std::vector<std::int64_t> left = {-3, -2, -1}, right = {4, 5, 6};
  auto map = [](const std::vector<std::int64_t>& ks, BoundaryMode mode) {
    std::vector<std::int64_t> out;
    for (auto k : ks) out.push_back(boundaryIndex(k, 4, mode));
    return out;
  };
  using V = std::vector<std::int64_t>;
  EXPECT_EQ(map(left, BoundaryMode::Zero), (V{-1, -1, -1}));
  EXPECT_EQ(map(left, BoundaryMode::Reflect), (V{2, 1, 0}));
  EXPECT_EQ(map(right, BoundaryMode::Reflect), (V{3, 2, 1}));
  EXPECT_EQ(map(left, BoundaryMode::Mirror), (V{3, 2, 1}));
  EXPECT_EQ(map(right, BoundaryMode::Mirror), (V{2, 1, 0}));
  EXPECT_EQ(map(left, BoundaryMode::Nearest), (V{0, 0, 0}));
  EXPECT_EQ(map(right, BoundaryMode::Nearest), (V{3, 3, 3}));
  EXPECT_EQ(map(left, BoundaryMode::Wrap), (V{1, 2, 3}));
  EXPECT_EQ(map(right, BoundaryMode::Wrap), (V{0, 1, 2}));
}

TEST(BoundaryIndex, FarOutsideAgreesWithRepeatedUnfolding) {
  for (auto mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror, BoundaryMode::Nearest,
                    BoundaryMode::Wrap}) {
    for (std::int64_t n = 1; n <= 6; ++n) {
      for (std::int64_t k = -40; k < 40; ++k) {
        EXPECT_EQ(boundaryIndex(k, n, mode), unfoldSlowly(k, n, mode))
            << "mode " << static_cast<int>(mode) << " n " << n << " k " << k;
      }
    }
  }
}

}  // namespace
}  // namespace siglab
