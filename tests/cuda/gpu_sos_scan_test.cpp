#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gpu_test_support.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/sos_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(GpuSosScan, SaysWhyWhenItCannotRunAndRejectsShortSignals) {
  const Sections sections = butterworthSections({4, 0.2});
  std::vector<double> x(1000, 1.0), y(1000);
  const GpuFilterResult result = sosfiltfiltCuda(sections, x, y);
  if (test::firstDevice().available) {
    EXPECT_EQ(result.status, GpuStatus::Ok) << result.reason;
  } else {
    EXPECT_EQ(result.status, GpuStatus::Unavailable);
    EXPECT_FALSE(result.reason.empty());
  }
  if (builtWithCuda()) {
    std::vector<double> shortX(10), shortY(10);
    EXPECT_THROW(sosfiltfiltCuda(sections, shortX, shortY), std::invalid_argument);
  }
}

// Against the serial sosfiltfilt within the bound each run states; sizes around the chunk length.
TEST(GpuSosScan, ZeroPhaseWithinItsStatedBound) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (const ButterworthSpec& spec : {ButterworthSpec{8, 0.1, 0.3, BandType::Bandpass}, ButterworthSpec{2, 0.01},
                                      ButterworthSpec{5, 0.7, 0, BandType::Highpass}}) {
    const Sections sections = butterworthSections(spec);
    for (std::size_t n : {sosfiltfiltPadLength(sections) + 1, std::size_t{1023}, std::size_t{1025},
                          std::size_t{100003}, std::size_t{2'000'001}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      std::vector<double> expected(n), actual(n, std::nan(""));
      sosfiltfilt(sections, x, expected);
      const GpuFilterResult result = sosfiltfiltCuda(sections, x, actual);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      double worst = 0;
      for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(actual[i] - expected[i]));
      EXPECT_LE(worst, result.errorBound) << "order " << spec.order << " n " << n << " (seed " << seed << ")";
      double maxAbs = 0;
      for (double v : x) maxAbs = std::max(maxAbs, std::abs(v));
      // A worst-case first-order bound is far above the typical error, but it must promise eight
      // digits of the signal's scale to mean anything.
      EXPECT_LE(result.errorBound, 1e-8 * maxAbs) << "a bound too loose to mean anything";
    }
  }
}

// The chunk kernel is compiled for 1 to 8 sections and runs more from local memory; it moves samples
// in tiles of 32 per chunk, 32 chunks a warp. Every section count either side of that, both
// directions (causal and zero phase), on sizes that end inside a tile, a warp's chunks and a group.
TEST(GpuSosScan, EverySectionCountAtTileWarpAndGroupEdges) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (int order : {1, 2, 3, 4, 5, 6, 7, 8, 9, 17}) {
    const Sections sections = butterworthSections({order, 0.1, 0.3, BandType::Bandpass});
    for (std::size_t n : {std::size_t{31} * 1024 + 17, std::size_t{32} * 1024 + 33, std::size_t{2} * 64 * 1024 + 7}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      std::vector<double> expected(n), actual(n, std::nan(""));
      sosfiltfilt(sections, x, expected);
      GpuFilterResult result = sosfiltfiltCuda(sections, x, actual);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      double worst = 0;
      for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(actual[i] - expected[i]));
      EXPECT_LE(worst, result.errorBound) << sections.size() << " sections, n " << n << " (seed " << seed << ")";

      SosState fromRest;
      sosfilt(sections, x, expected, fromRest);
      std::fill(actual.begin(), actual.end(), std::nan(""));
      result = sosfiltCuda(sections, x, actual);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      worst = 0;
      for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(actual[i] - expected[i]));
      EXPECT_LE(worst, result.errorBound) << "causal, " << sections.size() << " sections, n " << n << " (seed "
                                          << seed << ")";
    }
  }
}

// The causal scan from host memory streams through the engine base's ChunkPipeline in chunks of whole
// groups, its state carried from chunk to chunk on the device: within the stated bound of the serial
// sosfilt on sizes that end a chunk, one past it, and several chunks with a ragged last one, from
// pageable and from pinned memory.
TEST(GpuSosScan, CausalStreamedThroughTheCopiesWithinItsStatedBound) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const Sections sections = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  for (std::size_t n : {std::size_t{1}, kChunk, kChunk + 1, 3 * kChunk + 12345}) {
    const std::vector<double> x = test::randomSignal(n, rng);
    std::vector<double> expected(n);
    SosState fromRest;
    sosfilt(sections, x, expected, fromRest);
    PinnedHostVector<double> pinnedIn(n), pinnedOut(n);
    std::copy(x.begin(), x.end(), pinnedIn.data());
    std::vector<double> pageableOut(n, std::nan(""));
    for (const bool pinned : {false, true}) {
      const std::span<const double> in = pinned ? std::span<const double>(pinnedIn.data(), n) : std::span<const double>(x);
      const std::span<double> out = pinned ? std::span<double>(pinnedOut.data(), n) : std::span<double>(pageableOut);
      std::fill(out.begin(), out.end(), std::nan(""));
      const GpuFilterResult result = sosfiltCuda(sections, in, out);
      ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
      double worst = 0;
      for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(out[i] - expected[i]));
      EXPECT_LE(worst, result.errorBound) << (pinned ? "pinned" : "pageable") << ", n " << n << " (seed " << seed << ")";
      EXPECT_LE(result.errorBound, 1e-8) << "a bound too loose to mean anything";
    }
  }
}

}  // namespace
}  // namespace siglab
