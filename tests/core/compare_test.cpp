#include "siglab/compare.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "siglab/timing.hpp"

namespace siglab {
namespace {

TEST(Compare, IdenticalBitsAgree) {
  const std::vector<double> a = {1.0, -0.0, 3.5};
  const Agreement agreement = compareResults(a, a);
  EXPECT_TRUE(agreement.bitIdentical());
  EXPECT_EQ(agreement.maxAbsDiff, 0.0);
}

TEST(Compare, CountsMismatchesAndFindsTheLargestDifference) {
  const std::vector<double> ref = {1.0, 2.0, 3.0, 0.0};
  const std::vector<double> got = {1.0, 2.5, 2.0, -0.0};
  const Agreement agreement = compareResults(ref, got);
  EXPECT_EQ(agreement.mismatches, 3u);  // -0.0 has other bits than 0.0
  EXPECT_EQ(agreement.firstMismatch, 1u);
  EXPECT_EQ(agreement.maxAbsDiff, 1.0);
}

TEST(Compare, AnUnwrittenNaNIsAnInfiniteDifference) {
  const std::vector<double> ref = {1.0, 2.0};
  const std::vector<double> got = {1.0, std::numeric_limits<double>::quiet_NaN()};
  EXPECT_TRUE(std::isinf(compareResults(ref, got).maxAbsDiff));
}

TEST(Timing, MedianMinMax) {
  const TimingStats odd = summarize({5.0, 1.0, 3.0});
  EXPECT_EQ(odd.medianMs, 3.0);
  EXPECT_EQ(odd.minMs, 1.0);
  EXPECT_EQ(odd.maxMs, 5.0);
  EXPECT_EQ(summarize({4.0, 1.0, 2.0, 3.0}).medianMs, 2.5);
  EXPECT_EQ(summarize({}).samples, 0);
}

}  // namespace
}  // namespace siglab
