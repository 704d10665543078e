// gpu-fft against cpu-serial within its stated tolerance: every mode, random taps, awkward sizes
// (0, 1, smaller than the window, around one block, several batches), outputs poisoned first.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "shared_helpers.hpp"
#include "gpu_test_support.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/fft_convolution.hpp"
#include "siglab/taps.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::maxAbs;

void expectWithinTolerance(FilterBackend& gpu, const std::vector<double>& x, const FilterSpec& spec, std::uint64_t seed) {
  std::vector<double> want(x.size()), got(x.size(), std::numeric_limits<double>::quiet_NaN());
  filterSerial(x, spec, want);
  gpu.filter(std::span<const double>(x), spec, std::span<double>(got), RunOptions{});
  const double tolerance = gpu.tolerance(spec, maxAbs(x));
  for (std::size_t i = 0; i < x.size(); ++i) {
    ASSERT_LE(std::fabs(got[i] - want[i]), tolerance)  // NaN (an output never written) fails too
        << "W " << spec.window() << " n " << x.size() << " mode " << toString(spec.mode) << " i " << i << " seed " << seed;
  }
}

TEST(GpuFft, AgreesWithCpuSerialWithinItsToleranceOnAwkwardSizesAndEveryMode) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  auto gpu = makeCudaFftBackend();
  for (std::size_t window : {1u, 3u, 31u, 1001u}) {
    const std::size_t block = fftBlockLength(window) - window + 1;
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, window - 1, window + 2, block - 1, block, block + 1,
                          3 * block + 7}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      for (BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror, BoundaryMode::Nearest,
                                BoundaryMode::Wrap}) {
        expectWithinTolerance(*gpu, x, FilterSpec{test::randomSignal(window, rng, 1.0), mode}, seed);
      }
    }
  }
}

TEST(GpuFft, ManyBatchesOfALongGaussian) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  auto gpu = makeCudaFftBackend();
  // 64 MiB batches of 4096-point blocks hold 2048 blocks (8.4M outputs): 10^7 + 3 samples take two.
  const std::vector<double> x = test::randomSignal(10'000'003, rng);
  expectWithinTolerance(*gpu, x, makeMeanFilter(5, BoundaryMode::Reflect), seed);
  std::vector<double> shorter(x.begin(), x.begin() + 300'007);
  expectWithinTolerance(*gpu, shorter, makeGaussianFilter(1000.0, BoundaryMode::Wrap), seed);
}

TEST(GpuFft, WithoutAGpuItIsListedAndSaysWhy) {
  auto gpu = makeCudaFftBackend();
  EXPECT_EQ(gpu->name(), "gpu-fft");
  std::vector<double> x{1.0, 2.0, 3.0}, out(3);
  const std::string why = gpu->whyNot(makeMeanFilter(3), SampleType::f64);
  if (!why.empty()) {
    try {
      gpu->filter(std::span<const double>(x), makeMeanFilter(3), std::span<double>(out), RunOptions{});
      ADD_FAILURE() << "gpu-fft ran without a GPU";
    } catch (const EngineUnavailable& e) {
      EXPECT_EQ(std::string(e.what()), why);
    }
  } else {
    gpu->filter(std::span<const double>(x), makeMeanFilter(3), std::span<double>(out), RunOptions{});
    EXPECT_NEAR(out[1], 2.0, 1e-15);
  }
  EXPECT_EQ(gpu->whyNot(makeMeanFilter(3), SampleType::f32).empty(), false);
}

}  // namespace
}  // namespace siglab
