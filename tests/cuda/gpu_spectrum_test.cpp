// The cuFFT spectrum against FFTW's, within the stated bound, on awkward sizes and chunkings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "shared_helpers.hpp"
#include "gpu_test_support.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::maxAbs;

TEST(GpuSpectrum, AgreesWithTheCpuWithinTheBoundForEveryOptionSizeAndChunking) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (std::size_t n : {2u, 17u, 256u, 1000u, 4096u}) {
    for (std::size_t length : {n, 7 * n + 3, std::size_t{100003}}) {
      if (length < n) continue;
      std::vector<double> x = test::randomSignal(length, rng);
      for (double& v : x) v += 50.0;  // an offset, so detrending matters
      for (auto window : {SpectrumWindow::hann, SpectrumWindow::hamming, SpectrumWindow::blackman, SpectrumWindow::boxcar}) {
        for (auto scaling : {SpectrumScaling::density, SpectrumScaling::spectrum}) {
          for (auto detrend : {Detrend::constant, Detrend::none}) {
            for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
              const WelchOptions o{n, n > 2 ? std::optional<std::size_t>(n / 3) : std::nullopt, window, scaling, detrend, 1e4};
              if (chunk != 0 && segmentCount(o, x.size()) > 1000) continue;  // thousands of tiny chunks: slow, nothing new
              const Spectrum cpu = welch(x, o);
              const GpuSpectrumRun gpu = welchGpu(x, o, chunk);
              ASSERT_TRUE(gpu.ok) << gpu.message;
              ASSERT_EQ(gpu.spectrum.power.size(), cpu.power.size());
              const double bound = spectrumAgreementBound(o, maxAbs(x), x.size());
              for (std::size_t k = 0; k < cpu.power.size(); ++k) {
                ASSERT_NEAR(gpu.spectrum.power[k], cpu.power[k], bound)
                    << "segment " << n << " length " << length << " " << toString(window) << " chunk " << chunk
                    << " bin " << k << " seed " << seed;
                ASSERT_EQ(gpu.spectrum.frequency[k], cpu.frequency[k]);
              }
            }
          }
        }
      }
    }
  }
}

// A chunk's halo is the overlap (the rest of its last segment): none without overlap, all but one
// sample of a segment at the most; chunks of one segment and of many, against the CPU.
TEST(GpuSpectrum, ChunksCarryTheOverlapAsTheirHaloFromNoneToAllButOneSample) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> signal = test::randomSignal(20'011, rng);
  for (std::size_t overlap : {std::size_t{0}, std::size_t{1}, std::size_t{100}, std::size_t{255}}) {
    // At most 1000 segments: one-segment chunks stay cheap.
    const std::vector<double> x(signal.begin(), signal.begin() + std::min<std::ptrdiff_t>(20'011, 256 + 999 * (256 - overlap)));
    for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{7}}) {
      const WelchOptions o{256, overlap, SpectrumWindow::hann, SpectrumScaling::density, Detrend::constant, 1e4};
      const Spectrum cpu = welch(x, o);
      const GpuSpectrumRun gpu = welchGpu(x, o, chunk);
      ASSERT_TRUE(gpu.ok) << gpu.message;
      const double bound = spectrumAgreementBound(o, maxAbs(x), x.size());
      for (std::size_t k = 0; k < cpu.power.size(); ++k) {
        ASSERT_NEAR(gpu.spectrum.power[k], cpu.power[k], bound)
            << "overlap " << overlap << " chunk " << chunk << " bin " << k << " seed " << seed;
      }
    }
  }
}

TEST(GpuSpectrum, OneSampleSegmentsAreLeftToTheCpuWithTheReason) {
  const std::vector<double> x(10, 1.0);
  WelchOptions o;
  o.segment = 1;
  const GpuSpectrumRun run = welchGpu(x, o);
  EXPECT_FALSE(run.ok);
  EXPECT_FALSE(run.message.empty());
}

TEST(GpuSpectrum, WithoutAGpuItSaysWhyAndStillChecksTheOptions) {
  const std::vector<double> x(10, 1.0);
  WelchOptions o;
  EXPECT_THROW(welchGpu(x, o), SpectrumOptionError);  // segment 256 > 10 samples, GPU or not
  o.segment = 4;
  const GpuSpectrumRun run = welchGpu(x, o);
  if (!run.ok) {
    EXPECT_FALSE(run.message.empty());
    EXPECT_EQ(run.message, gpuSpectrumUnavailableReason());
  }
  EXPECT_EQ(run.ok, gpuSpectrumUnavailableReason().empty());
}

}  // namespace
}  // namespace siglab
