#include "shared_helpers.hpp"
#include "siglab/cpu_parallel.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "siglab/cpu_serial.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kModes;

using test::randomTaps;

template <typename Sample>
void expectBitIdentical(const std::vector<Sample>& in, const FilterSpec& spec, const std::string& what) {
  std::vector<Sample> expected(in.size()), actual(in.size(), std::numeric_limits<Sample>::quiet_NaN());
  filterSerial(std::span<const Sample>(in), spec, std::span<Sample>(expected));
  filterParallel(std::span<const Sample>(in), spec, std::span<Sample>(actual));
  std::size_t mismatches = 0, first = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (std::memcmp(&expected[i], &actual[i], sizeof(Sample)) != 0 && mismatches++ == 0) first = i;
  }
  EXPECT_EQ(mismatches, 0u) << what << ": first mismatch at " << first;
}

TEST(CpuParallel, BitIdenticalToSerialForEveryModeWindowAndAwkwardSize) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  const std::size_t sizes[] = {0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 100, 1023, 65536 + 3, 200003};
  const std::size_t windows[] = {1, 3, 5, 7, 9, 31, 101};
  for (BoundaryMode mode : kModes) {
    for (std::size_t w : windows) {
      for (std::size_t n : sizes) {
        if (n * w > 4'000'000) continue;  // keep the test to seconds
        const std::vector<double> in = test::randomSignal(n, rng);
        const std::string what = std::string(toString(mode)) + " W=" + std::to_string(w) + " N=" + std::to_string(n);
        expectBitIdentical(in, randomTaps(w, mode, rng), what + " random taps");
        expectBitIdentical(in, makeMeanFilter(w, mode), what + " mean");
      }
    }
  }
}

TEST(CpuParallel, BitIdenticalWhenTheWindowIsLongerThanTheSignal) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (BoundaryMode mode : kModes) {
    for (std::size_t n : {1u, 2u, 5u, 20u}) {
      expectBitIdentical(test::randomSignal(n, rng), randomTaps(41, mode, rng), std::string(toString(mode)));
    }
  }
}

TEST(CpuParallel, Float32BitIdenticalToSerialWithEitherAccumulator) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (Accumulator acc : {Accumulator::SampleType, Accumulator::Float64}) {
    for (BoundaryMode mode : kModes) {
      for (std::size_t n : {0u, 1u, 6u, 33u, 70001u}) {
        for (std::size_t w : {1u, 5u, 13u}) {
          const std::vector<double> wide = test::randomSignal(n, rng);
          const std::vector<float> in(wide.begin(), wide.end());
          FilterSpec spec = randomTaps(w, mode, rng);
          spec.accumulator = acc;
          expectBitIdentical(in, spec, std::string(toString(mode)) + " W=" + std::to_string(w) + " N=" +
                                           std::to_string(n) + (acc == Accumulator::Float64 ? " f64 sums" : ""));
        }
      }
    }
  }
}

TEST(CpuParallel, BitIdenticalWhenTheOutputIsStreamedPastTheCache) {
  // Outputs beyond 8 MiB are written with non-temporal stores after an aligned prologue.
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::vector<double> in = test::randomSignal((std::size_t{8} << 20) / sizeof(double) + 1001, rng);
  expectBitIdentical(in, randomTaps(7, BoundaryMode::Reflect, rng), "f64");
  const std::vector<float> in32(in.begin(), in.end());
  const std::vector<float> longer32 = [&] {
    std::vector<float> v = in32;
    v.insert(v.end(), in32.begin(), in32.end());
    v.push_back(1.5f);
    return v;
  }();
  FilterSpec spec = randomTaps(5, BoundaryMode::Wrap, rng);
  expectBitIdentical(longer32, spec, "f32");
  spec.accumulator = Accumulator::Float64;
  expectBitIdentical(longer32, spec, "f32 with f64 sums");
}

TEST(CpuParallel, BackendRunsBothSampleTypes) {
  CpuParallelBackend backend;
  const std::vector<double> in = {1, 2, 3, 4};
  std::vector<double> out(4, std::nan(""));
  EXPECT_EQ(backend.whyNot(makeMeanFilter(5), SampleType::f64), "");
  EXPECT_EQ(backend.whyNot(makeMeanFilter(5), SampleType::f32), "");
  EXPECT_NE(backend.whyNot(makeMeanFilter(5), SampleType::i16).find("i16"), std::string::npos);
  const FilterPass pass = backend.filter(in, FilterSpec{{10000, 1000, 100, 10, 1}, BoundaryMode::Zero}, out, RunOptions{});
  EXPECT_EQ(pass.phases.transferMs, 0.0);
  EXPECT_EQ(pass.phases.kernelMs, pass.phases.totalMs);
  EXPECT_EQ(out, (std::vector<double>{123, 1234, 12340, 23400}));
  const std::vector<float> in32 = {1, 2, 3, 4};
  std::vector<float> out32(4, std::nanf(""));
  backend.filter(in32, FilterSpec{{100, 10, 1}, BoundaryMode::Wrap}, out32, RunOptions{});
  EXPECT_EQ(out32, (std::vector<float>{412, 123, 234, 341}));
  EXPECT_EQ(backend.tolerance(makeMeanFilter(5), 1.0), 0.0);
}

TEST(CpuParallel, ReportsWhereItsPiecesBeginAndStopsWhenCancelled) {
  const std::vector<double> in(300000, 1.0);
  std::vector<double> out(in.size());
  const std::vector<std::size_t> starts = filterParallel(in, makeMeanFilter(5), out);
  ASSERT_GE(starts.size(), 2u);  // 300000 outputs are more than one piece
  EXPECT_TRUE(std::is_sorted(starts.begin(), starts.end()));
  EXPECT_GT(starts.front(), 0u);
  EXPECT_LT(starts.back(), in.size());
  std::atomic<bool> cancel{true};
  Progress progress;
  progress.cancelFlag = &cancel;
  CpuParallelBackend backend;
  EXPECT_THROW(backend.filter(std::span<const double>(in), makeMeanFilter(5), std::span<double>(out), RunOptions{},
                              progress),
               Cancelled);
}

}  // namespace
}  // namespace siglab
