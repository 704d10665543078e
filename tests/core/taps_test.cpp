#include "siglab/taps.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(Taps, GaussianMatchesScipysWindowAndWeights) {
  // scipy.ndimage.gaussian_filter1d(sigma=1): radius int(4 * 1 + 0.5) = 4, weights exp(-k^2/2)
  // normalised: the centre is 1 / (1 + 2 (e^-0.5 + e^-2 + e^-4.5 + e^-8)) = 0.3989434694 (scipy's).
  const FilterSpec spec = makeGaussianFilter(1.0, BoundaryMode::Reflect);
  ASSERT_EQ(spec.window(), 9u);
  EXPECT_EQ(spec.mode, BoundaryMode::Reflect);
  EXPECT_NEAR(spec.taps[4], 0.3989434694, 1e-9);
  EXPECT_NEAR(spec.taps[3], 0.3989434694 * std::exp(-0.5), 1e-9);
  EXPECT_NEAR(std::accumulate(spec.taps.begin(), spec.taps.end(), 0.0), 1.0, 1e-15);
  for (std::size_t j = 0; j < 4; ++j) EXPECT_EQ(spec.taps[j], spec.taps[8 - j]);
  EXPECT_EQ(makeGaussianFilter(2.5).window(), 21u);  // radius int(10.5) = 10
  EXPECT_EQ(makeGaussianFilter(2.5, BoundaryMode::Zero, 7).window(), 7u);
}

TEST(Taps, GaussianRejectsBadSigmaOrEvenWindow) {
  EXPECT_THROW(makeGaussianFilter(0.0), std::invalid_argument);
  EXPECT_THROW(makeGaussianFilter(-1.0), std::invalid_argument);
  EXPECT_THROW(makeGaussianFilter(NAN), std::invalid_argument);
  EXPECT_THROW(makeGaussianFilter(1.0, BoundaryMode::Zero, 4), std::invalid_argument);
}

TEST(Taps, GaussianRefusesASigmaWhoseWindowCannotBeBuilt) {
  // Their windows overflowed size_t into a 1-tap identity filter.
  for (const double sigma : {5e18, 1e19, 1e20, 1e300, 1e9}) {
    EXPECT_THROW(makeGaussianFilter(sigma), std::invalid_argument) << sigma;
    EXPECT_THROW(gaussianWindow(sigma), std::invalid_argument) << sigma;
  }
  try {
    makeGaussianFilter(1e9, BoundaryMode::Reflect);
    ADD_FAILURE() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "Gaussian sigma 1e+09 needs 8000000001 taps; at most 268435457 are built (sigma up to 33554432)");
  }
  EXPECT_EQ(gaussianWindow(33554432.0), kMaxGaussianWindow);
  EXPECT_THROW(gaussianWindow(33554432.2), std::invalid_argument);
  EXPECT_THROW(makeGaussianFilter(2.0, BoundaryMode::Zero, kMaxGaussianWindow + 2), std::invalid_argument);
}

TEST(Taps, AGaussianForASignalIsTheCroppedWholeOneBitForBit) {
  for (const std::size_t samples : {1u, 7u, 60u, 1000u}) {
    for (const BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect}) {
      const FilterSpec whole = cropToSignal(makeGaussianFilter(12.5, mode), samples);
      const FilterSpec forSignal = gaussianFilterForSignal(12.5, mode, 0, samples);
      EXPECT_EQ(forSignal.taps, whole.taps) << samples << " " << toString(mode);
      EXPECT_EQ(forSignal.mode, mode);
    }
  }
  EXPECT_EQ(gaussianFilterForSignal(2.0, BoundaryMode::Zero, 7, 2).taps,
            cropToSignal(makeGaussianFilter(2.0, BoundaryMode::Zero, 7), 2).taps);
  // Wider than 2^20 taps, 199 of them held; the sum still runs over all 8 million.
  EXPECT_EQ(gaussianFilterForSignal(1e6, BoundaryMode::Zero, 0, 100).window(), 199u);
  EXPECT_THROW(gaussianFilterForSignal(1e9, BoundaryMode::Zero, 0, 100), std::invalid_argument);
  EXPECT_THROW(gaussianFilterForSignal(1e6, BoundaryMode::Reflect, 0, 100), std::invalid_argument);  // past N W <= 2^26
}

TEST(Taps, ReadsAnOddCountAndNamesTheFileOtherwise) {
  test::TempDir dir;
  test::writeFile(dir.file("three.txt"), "# smoothing\n0.25\n0.5\n0.25\n");
  EXPECT_EQ(readTaps(dir.file("three.txt")), (std::vector<double>{0.25, 0.5, 0.25}));
  test::writeFile(dir.file("two.txt"), "0.5\n0.5\n");
  try {
    readTaps(dir.file("two.txt"));
    FAIL() << "no exception";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("two.txt"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("odd number of taps"), std::string::npos) << e.what();
  }
  test::writeFile(dir.file("bad.txt"), "0.5\nx\n0.5\n");
  EXPECT_THROW(readTaps(dir.file("bad.txt")), InputError);
}

}  // namespace
}  // namespace siglab
