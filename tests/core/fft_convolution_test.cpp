// cpu-fft (FFT overlap-save) against cpu-serial within its stated bound: every mode, random taps,
// awkward sizes, outputs poisoned first.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "shared_helpers.hpp"
#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/fft_convolution.hpp"
#include "siglab/taps.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kModes;

using test::maxAbs;

// The largest |fft - serial| over the outputs, or infinity if any output is not finite.
double worstDifference(const std::vector<double>& x, const FilterSpec& spec) {
  std::vector<double> want(x.size()), got(x.size(), std::numeric_limits<double>::quiet_NaN());
  filterSerial(x, spec, want);
  filterFft(x, spec, got);
  double worst = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!std::isfinite(got[i])) return std::numeric_limits<double>::infinity();
    worst = std::max(worst, std::fabs(got[i] - want[i]));
  }
  return worst;
}

TEST(FftConvolution, AgreesWithCpuSerialWithinItsToleranceOnAwkwardSizesAndEveryMode) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const CpuFftBackend backend;
  for (std::size_t window : {1u, 3u, 5u, 31u, 1001u}) {
    const std::size_t block = fftBlockLength(window) - window + 1;  // outputs a block
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, window - 1, window + 2, block - 1, block, block + 1,
                          3 * block + 7}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      for (BoundaryMode mode : kModes) {
        FilterSpec spec{test::randomSignal(window, rng, 1.0), mode};
        const double bound = backend.tolerance(spec, maxAbs(x));
        const double worst = worstDifference(x, spec);
        ASSERT_LE(worst, bound) << "W " << window << " n " << n << " mode " << toString(mode) << " seed " << seed;
      }
    }
  }
}

TEST(FftConvolution, LongGaussianIsFarInsideTheBound) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> x = test::randomSignal(100'003, rng);
  const FilterSpec gaussian = makeGaussianFilter(1000.0, BoundaryMode::Reflect);
  ASSERT_EQ(gaussian.window(), 8001u);
  const double bound = CpuFftBackend().tolerance(gaussian, maxAbs(x));
  const double worst = worstDifference(x, gaussian);
  EXPECT_LE(worst, bound) << "seed " << seed;
  std::printf("W 8001, 100003 samples in +-100: max |fft - serial| = %.3g, bound %.3g\n", worst, bound);
}

TEST(FftConvolution, TheBackendRefusesNonFiniteSamplesAndRuns) {
  CpuFftBackend backend;
  std::vector<double> x{1.0, std::nan(""), 3.0}, out(3);
  EXPECT_THROW(backend.filter(std::span<const double>(x), makeMeanFilter(3), std::span<double>(out), RunOptions{}),
               EngineUnavailable);
  x[1] = 2.0;
  backend.filter(std::span<const double>(x), makeMeanFilter(3), std::span<double>(out), RunOptions{});
  EXPECT_EQ(backend.whyNot(makeMeanFilter(3), SampleType::f32), "cpu-fft has no float32 path");
  EXPECT_NEAR(out[1], 2.0, 1e-15);
  EXPECT_NEAR(out[0], 1.0, 1e-15);  // (0 + 1 + 2) / 3 with zero padding
}

}  // namespace
}  // namespace siglab
