#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "shared_helpers.hpp"
#include "gpu_test_support.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/median_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kModes;

// Runs everywhere: without a GPU (or CUDA) the engine says so instead of failing or aborting.
TEST(GpuMedian, SaysWhyWhenItCannotRun) {
  std::vector<double> x(100, 1.0), y(100);
  const GpuFilterResult result = medianFilterCuda(std::span<const double>(x), 5, BoundaryMode::Zero, std::span<double>(y));
  if (test::firstDevice().available) {
    EXPECT_EQ(result.status, GpuStatus::Ok) << result.reason;
  } else {
    EXPECT_EQ(result.status, GpuStatus::Unavailable);
    EXPECT_FALSE(result.reason.empty());
  }
  EXPECT_THROW(medianFilterCuda(std::span<const double>(x), 4, BoundaryMode::Zero, std::span<double>(y)),
               std::invalid_argument);
  const GpuFilterResult wide =
      medianFilterCuda(std::span<const double>(x), kGpuMedianMaxWindow + 2, BoundaryMode::Zero, std::span<double>(y));
  EXPECT_EQ(wide.status, GpuStatus::Unavailable);
  EXPECT_FALSE(wide.reason.empty());
}

// Ties, NaN, signed zeros and infinities; sizes below, at and past a tile; every mode and both
// kernels (registers up to W = 9, sorted tiles above, every tile size); outputs poisoned first.
template <typename T>
void expectBitIdentical() {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> value(-30, 30);
  const T specials[] = {std::numeric_limits<T>::quiet_NaN(), T(-0.0), T(0.0), std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity()};
  for (std::size_t n : {1u, 2u, 9u, 255u, 4097u, 100003u}) {
    std::vector<T> in(n);
    for (T& v : in) v = value(rng) > 27 ? specials[static_cast<std::size_t>(value(rng) + 30) % 5] : T(value(rng)) / T(8);
    for (std::size_t w : std::vector<std::size_t>{1, 3, 5, 7, 9, 11, 63, 101, 255, 511, 1023, kGpuMedianMaxWindow}) {
      if (n * w > 30'000'000) continue;  // keeps the reference fast
      for (BoundaryMode mode : kModes) {
        std::vector<T> expected(n), actual(n, std::numeric_limits<T>::quiet_NaN());
        medianFilterReference(std::span<const T>(in), w, mode, std::span<T>(expected));
        const GpuFilterResult result = medianFilterCuda(std::span<const T>(in), w, mode, std::span<T>(actual));
        ASSERT_EQ(result.status, GpuStatus::Ok) << result.reason;
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) bad += std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0;
        EXPECT_EQ(bad, 0u) << "n " << n << " W " << w << " mode " << static_cast<int>(mode) << " (seed " << seed << ")";
      }
    }
  }
}

TEST(GpuMedian, BitIdenticalToTheReferenceFloat64) { expectBitIdentical<double>(); }
TEST(GpuMedian, BitIdenticalToTheReferenceFloat32) { expectBitIdentical<float>(); }

}  // namespace
}  // namespace siglab
