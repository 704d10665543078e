// Issue 27's stage engines on the GPU (cuda_stages.hpp, sosfiltCuda) against the CPU reference on
// fresh random inputs of awkward sizes, whole and block by block as a stream feeds them. Without a
// GPU they say why (and check their arguments all the same).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "shared_helpers.hpp"
#include "gpu_test_support.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_stages.hpp"
#include "siglab/iir_design.hpp"
#include "siglab/rate_designs.hpp"
#include "siglab/sos_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::maxAbs;

TEST(GpuStages, SayWhyWhenTheyCannotRunAndCheckTheirArguments) {
  const SpectrogramLayout layout = spectrogramLayout({}, 1000, std::nullopt);
  std::vector<double> x(1000, 1.0), frames(layout.frames * layout.frequencies);
  const GpuFilterResult result = spectrogramCuda(x, layout, layout.frames, frames);
  if (test::firstDevice().available) {
    EXPECT_EQ(result.status, GpuStatus::Ok) << result.reason;
  } else {
    EXPECT_EQ(result.status, GpuStatus::Unavailable);
    EXPECT_FALSE(result.reason.empty());
  }
  std::vector<double> tooFew(layout.frequencies);
  EXPECT_THROW(spectrogramCuda(x, layout, layout.frames, tooFew), std::invalid_argument);
  const Polyphase fir({0.25, 0.5, 0.25}, 1, 2, 1);
  std::vector<double> y(10);
  EXPECT_THROW(polyphaseCuda(fir, x, 995, 1000, 0, y), std::invalid_argument);  // x runs past the signal
  PeakOptions prominence;
  prominence.prominence = 1.0;
  std::vector<PeakRow> peaks;
  EXPECT_FALSE(gpuFindsPeaks(prominence));
  EXPECT_THROW(findPeaksCuda(x, prominence, peaks), std::invalid_argument);
  if (builtWithCuda()) {  // the held inputs must cover every input the outputs read
    EXPECT_THROW(polyphaseCuda(fir, std::span<const double>(x).subspan(10, 100), 10, 1000, 0, y), std::invalid_argument);
  }
}

// Spectrogram frames against FrameTransform (FFTW), whole and as a stream's blocks pass them.
TEST(GpuStages, SpectrogramAgreesWithTheCpuFramesWholeAndInBlocks) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  SpectrogramOptions tukey;  // SciPy's defaults
  SpectrogramOptions odd;
  odd.window = "hann";
  odd.nperseg = 100;
  odd.noverlap = 37;
  odd.nfft = 129;
  odd.detrend = SegmentDetrend::linear;
  odd.mode = SpectrogramMode::magnitude;
  SpectrogramOptions complexSpectrum;
  complexSpectrum.nperseg = 64;
  complexSpectrum.detrend = SegmentDetrend::none;
  complexSpectrum.density = false;
  complexSpectrum.mode = SpectrogramMode::complex;
  for (const SpectrogramOptions& options : {tukey, odd, complexSpectrum}) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{255}, std::size_t{4099}, std::size_t{100003}}) {
      if (options.noverlap.value_or(0) >= std::min(options.nperseg, n)) continue;  // SciPy refuses it too
      const SpectrogramLayout l = spectrogramLayout(options, n, 1000.0);
      const std::vector<double> x = test::randomSignal(n, rng);
      const std::size_t row = l.planes * l.frequencies;
      std::vector<double> expected(l.frames * row);
      FrameTransform transform(l);
      for (std::uint64_t f = 0; f < l.frames; ++f) transform.run(x.data() + f * l.step, expected.data() + f * row);
      std::vector<double> whole(expected.size(), std::nan("")), blocks(expected.size(), std::nan(""));
      const GpuFilterResult result = spectrogramCuda(x, l, l.frames, whole);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      const std::uint64_t split = l.frames / 3;  // two blocks of frames, the second from its own samples
      ASSERT_EQ(spectrogramCuda(x, l, split, std::span<double>(blocks).first(split * row)).status, GpuStatus::Ok);
      ASSERT_EQ(spectrogramCuda(std::span<const double>(x).subspan(split * l.step), l, l.frames - split,
                                std::span<double>(blocks).subspan(split * row))
                    .status,
                GpuStatus::Ok);
      const double bound = spectrogramAgreementBound(l, maxAbs(x));
      for (std::size_t i = 0; i < expected.size(); ++i) {
        ASSERT_LE(std::abs(whole[i] - expected[i]), bound) << "n " << n << " value " << i << " (seed " << seed << ")";
        ASSERT_LE(std::abs(blocks[i] - expected[i]), bound) << "n " << n << " value " << i << " (seed " << seed << ")";
      }
    }
  }
}

// upfirdn, resample_poly and decimate's FIR: cpu-serial's bits, whole and in blocks with history.
TEST(GpuStages, PolyphaseGivesCpuSerialsBitsWholeAndInBlocks) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  std::vector<double> resampleTaps = firwinLowpass(61, 1.0 / 3.0, {});
  for (double& t : resampleTaps) t *= 3.0;
  const std::vector<Polyphase> filters{
      Polyphase(resampleTaps, 3, 2, 30),                                               // resample_poly(3, 2)
      Polyphase(firwinLowpass(81, 0.25, {FirWindow::Shape::Hamming}), 1, 4, 40),      // decimate(4, ftype='fir')
      Polyphase(test::randomSignal(7, rng, 1.0), 5, 3, 0),                             // upfirdn, taps not a multiple of up
      Polyphase({1.0}, 1, 1, 0)};
  for (const Polyphase& fir : filters) {
    for (const std::int64_t n : {std::int64_t{1}, std::int64_t{6}, std::int64_t{1000}, std::int64_t{100003}}) {
      const std::vector<double> x = test::randomSignal(static_cast<std::size_t>(n), rng);
      const auto outputs = static_cast<std::int64_t>(upfirdnLength(static_cast<std::uint64_t>(n), fir.tapCount(),
                                                                   static_cast<std::uint64_t>(fir.up()),
                                                                   static_cast<std::uint64_t>(fir.down())));
      std::vector<double> expected(static_cast<std::size_t>(outputs));
      fir.run(x, expected, false);
      std::vector<double> whole(expected.size(), std::nan(""));
      const GpuFilterResult result = polyphaseCuda(fir, x, 0, n, 0, whole);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      EXPECT_EQ(whole, expected) << "up " << fir.up() << " down " << fir.down() << " n " << n << " (seed " << seed << ")";
      // A stream's second block: its outputs from the inputs they read, held from `from`.
      const std::int64_t split = outputs / 2;
      if (split == 0) continue;
      const std::int64_t from = std::min(fir.firstInput(split), n - 1), to = std::min(fir.lastInput(outputs - 1, n), n - 1);
      std::vector<double> block(static_cast<std::size_t>(outputs - split), std::nan(""));
      const auto held = static_cast<std::size_t>(std::max<std::int64_t>(0, to - from + 1));
      ASSERT_EQ(polyphaseCuda(fir, std::span<const double>(x).subspan(static_cast<std::size_t>(from), held), from, n, split, block).status,
                GpuStatus::Ok);
      EXPECT_TRUE(std::equal(block.begin(), block.end(), expected.begin() + split)) << "n " << n << " (seed " << seed << ")";
    }
  }
}

// find_peaks' rows (index, height) exactly PeakFinder's, plateaus included.
TEST(GpuStages, FindPeaksGivesThePeakFindersRows) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  std::vector<PeakOptions> optionSets(4);
  optionSets[1].height = 50.0;
  optionSets[2].height = 0.0;
  optionSets[2].threshold = 5.0;
  optionSets[3].height = 20.0;
  optionSets[3].distance = 7.5;
  for (const std::size_t n : {std::size_t{0}, std::size_t{2}, std::size_t{3}, std::size_t{1000}, std::size_t{100003}}) {
    std::vector<double> x = test::randomSignal(n, rng);
    for (std::size_t i = 0; i < n / 2; ++i) x[i] = std::round(x[i] / 40.0) * 40.0;  // plateaus in the first half
    if (n > 20000) std::fill(x.begin() + 10000, x.begin() + 19000, 120.0);          // one long plateau
    for (const PeakOptions& options : optionSets) {
      PeakFinder finder(options, n);
      finder.feed(x);
      finder.finish();
      const std::vector<PeakRow> expected = finder.take();
      std::vector<PeakRow> actual;
      const GpuFilterResult result = findPeaksCuda(x, options, actual);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      ASSERT_EQ(actual.size(), expected.size()) << "n " << n << " (seed " << seed << ")";
      for (std::size_t k = 0; k < expected.size(); ++k) {
        ASSERT_EQ(actual[k].index, expected[k].index) << "peak " << k << " n " << n << " (seed " << seed << ")";
        ASSERT_EQ(actual[k].height, expected[k].height);
      }
    }
  }
}

// sosfilt and lfilter's sections: the forward scan alone, within its stated bound, for any stable
// sections (Butterworth and Chebyshev), on sizes around the scan's chunk.
TEST(GpuStages, CausalSectionsWithinTheirStatedBound) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (const Sections& sections : {butterworthSections({8, 0.1, 0.3, BandType::Bandpass}),
                                   cheby1Sections({6, 0.2, 0.0, BandType::Lowpass}, 1.0)}) {
    for (const std::size_t n : {std::size_t{1}, std::size_t{1023}, std::size_t{1025}, std::size_t{300007}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      std::vector<double> expected(n), actual(n, std::nan(""));
      SosState state;
      sosfilt(sections, x, expected, state);
      const GpuFilterResult result = sosfiltCuda(sections, x, actual);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      double worst = 0;
      for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(actual[i] - expected[i]));
      EXPECT_LE(worst, result.errorBound) << "n " << n << " (seed " << seed << ")";
      EXPECT_LE(result.errorBound, 1e-8 * maxAbs(x)) << "a bound too loose to mean anything";
    }
  }
  std::vector<double> none;
  EXPECT_EQ(sosfiltCuda(butterworthSections({4, 0.2}), none, none).status, GpuStatus::Ok);
}

}  // namespace
}  // namespace siglab
