// Every GPU engine split over devices against the same engine on one device: a forced split (two
// or three parts on device 0, "--devices 0,0") runs the multi-device logic on any one-GPU machine.
// Same bits for every engine that is bit-identical to cpu-serial; gpu-fft and gpu-tuned's
// prefix-sum path within their stated tolerance.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "shared_helpers.hpp"
#include "gpu_test_support.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/cuda_reduce.hpp"
#include "siglab/split_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kAllModes;

BackendList enginesOn(std::vector<int> devices) {
  CudaOptions options;
  options.devices = std::move(devices);
  options.chunkSamples = 4096 * 3;  // several chunks per part, so chunk and part cuts both occur
  BackendList engines = makeCudaBackends(options);
  engines.push_back(makeCudaFftBackend(options.devices));
  return engines;
}

template <class T>
double largestDifference(const std::vector<T>& a, const std::vector<T>& b, std::size_t& bitMismatches) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  double largest = 0;
  bitMismatches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    bitMismatches += std::bit_cast<Bits>(a[i]) != std::bit_cast<Bits>(b[i]);
    largest = std::max(largest, std::abs(static_cast<double>(a[i]) - static_cast<double>(b[i])));
  }
  return largest;
}

template <class T>
void expectSplitMatchesOneDevice(const std::vector<int>& devices) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  const SampleType type = std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64;
  BackendList one = enginesOn({0});
  BackendList split = enginesOn(devices);
  ASSERT_EQ(one.size(), split.size());
  for (std::size_t e = 0; e < one.size(); ++e) {
    ASSERT_EQ(one[e]->name(), split[e]->name());
    ASSERT_NE(dynamic_cast<SplitFilterBackend*>(split[e].get()), nullptr) << split[e]->name();
    for (BoundaryMode mode : kAllModes) {
      for (std::size_t window : {1, 5, 31, 129}) {  // 129: gpu-tuned's prefix-sum path for uniform taps
        const bool uniform = window == 129;
        FilterSpec spec{uniform ? std::vector<double>(window, 1.0 / static_cast<double>(window))
                                : test::randomSignal(window, rng, 1.0),
                        mode};
        if (!one[e]->whyNot(spec, type).empty()) continue;
        for (std::size_t n : {1, 2, 100, 4095, 4097, 8192 * 3 + 7, 100003}) {
          const std::vector<double> wide = test::randomSignal(n, rng);
          const std::vector<T> in(wide.begin(), wide.end());
          std::vector<T> expected(n, std::numeric_limits<T>::quiet_NaN()), actual(n, std::numeric_limits<T>::quiet_NaN());
          one[e]->filter(std::span<const T>(in), spec, std::span<T>(expected), RunOptions{});
          split[e]->filter(std::span<const T>(in), spec, std::span<T>(actual), RunOptions{});
          std::size_t mismatches = 0;
          const double difference = largestDifference(expected, actual, mismatches);
          const double bound = std::is_same_v<T, float> ? one[e]->toleranceFloat32(spec, 100.0)
                                                        : one[e]->tolerance(spec, 100.0);
          if (bound == 0.0) {
            ASSERT_EQ(mismatches, 0u) << one[e]->name() << " W " << window << " n " << n;
          } else {
            ASSERT_LE(difference, 2 * bound) << one[e]->name() << " W " << window << " n " << n;  // each within bound of exact
          }
        }
      }
    }
  }
}

TEST(GpuSplit, TwoPartsOnOneDeviceGiveTheBitsOfOneDevice) {
  SIGLAB_SKIP_WITHOUT_GPU();
  expectSplitMatchesOneDevice<double>({0, 0});
}

TEST(GpuSplit, ThreePartsOnOneDeviceInFloat32) {
  SIGLAB_SKIP_WITHOUT_GPU();
  expectSplitMatchesOneDevice<float>({0, 0, 0});
}

TEST(GpuSplit, EveryDeviceOfTheHost) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::vector<DeviceInfo> devices = probeDevices();
  if (devices.size() < 2) GTEST_SKIP() << "one GPU here; the forced split above covers the logic";
  std::vector<int> every;
  for (const DeviceInfo& d : devices) every.push_back(d.index);
  expectSplitMatchesOneDevice<double>(every);
}

TEST(GpuSplit, ADeviceThatDoesNotExistIsExplained) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const int missing = static_cast<int>(probeDevices().size());
  BackendList engines = enginesOn({0, missing});
  for (const auto& engine : engines) {
    const std::string why = engine->whyNot(makeMeanFilter(5), SampleType::f64);
    EXPECT_NE(why.find("there is no GPU " + std::to_string(missing)), std::string::npos) << engine->name() << ": " << why;
  }
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

// Sums split over devices: integer sums exact, float64 sums within the one-device bound.
TEST(GpuSplit, SumsOverAForcedSplitAreExactOrWithinTheBound) {
  SIGLAB_SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test::freshSeed());
  std::uniform_int_distribution<std::int32_t> byte(-(1 << 30), 1 << 30);
  for (std::size_t n : {0, 1, 3, 5, 4099, 1000003}) {
    std::vector<std::int32_t> ints(n);
    std::int64_t exact = 0;
    for (auto& v : ints) {
      v = byte(rng);
      exact += v;
    }
    const std::vector<double> values = test::randomSignal(n, rng);
    double absSum = 0;
    for (double v : values) absSum += std::abs(v);
    for (const std::vector<int>& devices : {std::vector<int>{0}, std::vector<int>{0, 0}, std::vector<int>{0, 0, 0}}) {
      const DeviceSum intSum = sumOnDevices(std::span<const std::int32_t>(ints), devices, 1);
      ASSERT_TRUE(intSum.problem.empty()) << intSum.problem;
      EXPECT_EQ(intSum.integerValue, exact) << "n " << n << ", " << devices.size() << " parts";
      const DeviceSum sum = sumOnDevices(std::span<const double>(values), devices, 1);
      ASSERT_TRUE(sum.problem.empty()) << sum.problem;
      const double bound = 2.0 * static_cast<double>(std::max<std::size_t>(n, 2)) * 0x1.0p-52 * absSum;
      EXPECT_LE(std::abs(sum.value - compensatedSum(values)), bound) << "n " << n << ", " << devices.size() << " parts";
      EXPECT_EQ(sum.partSums.size(), std::min(devices.size(), (n + 3) / 4));
    }
  }
  const DeviceSum missing = sumOnDevices(std::span<const double>(), {0, static_cast<int>(probeDevices().size())}, 1);
  EXPECT_NE(missing.problem.find("there is no GPU"), std::string::npos) << missing.problem;
}

}  // namespace
}  // namespace siglab
