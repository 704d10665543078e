// GPU Welch, gpu-median and gpu-sos-scan on a device list against one device: a forced split (two
// or three parts on device 0, "--devices 0,0") runs the multi-device logic on any one-GPU machine.
// All three claim the same bits as one device; outputs are poisoned (NaN) before every run.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "shared_helpers.hpp"
#include "gpu_test_support.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/split_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kAllModes;
const std::vector<std::vector<int>> kForcedSplits = {{0, 0}, {0, 0, 0}};

CudaOptions onDevices(std::vector<int> devices) {
  CudaOptions options;
  options.devices = std::move(devices);
  return options;
}

template <class T>
std::size_t bitMismatches(const std::vector<T>& a, const std::vector<T>& b) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  std::size_t count = a.size() == b.size() ? 0 : std::max(a.size(), b.size());
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) count += std::bit_cast<Bits>(a[i]) != std::bit_cast<Bits>(b[i]);
  return count;
}

// A device that does not exist is refused with a reason, GPU or not (no crash, no exception).
TEST(GpuDeviceList, AMissingDeviceIsRefusedWithTheReason) {
  const int missing = 99;
  const std::vector<double> x(5000, 1.0);
  WelchOptions o;
  o.segment = 256;
  const GpuSpectrumRun welchRun = welchGpu(x, o, 0, {0, missing});
  EXPECT_FALSE(welchRun.ok);
  EXPECT_FALSE(welchRun.message.empty());

  const auto median = makeGpuMedianBackend(onDevices({0, missing}), test::firstDevice());
  EXPECT_FALSE(median->whyNot(makeMedianFilter(5, BoundaryMode::Reflect), SampleType::f64).empty());
  const auto scan = makeGpuSosScanBackend(onDevices({missing}), test::firstDevice());
  FilterSpec sos = makeButterworthFilter({4, 0.2}, true);
  EXPECT_FALSE(scan->whyNot(sos, SampleType::f64).empty());

  std::vector<double> y(x.size());
  const GpuFilterResult scanRun = sosfiltfiltCuda(butterworthSections({4, 0.2}), x, y, std::vector<int>{0, missing});
  EXPECT_EQ(scanRun.status, GpuStatus::Unavailable);
  EXPECT_FALSE(scanRun.reason.empty());
  if (test::firstDevice().available) {
    EXPECT_NE(welchRun.message.find("no GPU 99"), std::string::npos) << welchRun.message;
    EXPECT_NE(scanRun.reason.find("no GPU 99"), std::string::npos) << scanRun.reason;
  }
}

TEST(GpuDeviceList, EnginesOnSeveralDevicesKeepTheirNamesAndSayWhereTheyRun) {
  const auto median = makeGpuMedianBackend(onDevices({0, 0}), test::firstDevice());
  const auto scan = makeGpuSosScanBackend(onDevices({0, 0}), test::firstDevice());
  EXPECT_EQ(median->name(), "gpu-median");
  EXPECT_EQ(scan->name(), "gpu-sos-scan");
  EXPECT_NE(dynamic_cast<SplitFilterBackend*>(median.get()), nullptr);
  EXPECT_NE(std::string(median->description()).find("devices 0,0"), std::string::npos);
  EXPECT_NE(std::string(scan->description()).find("devices 0,0"), std::string::npos);
}

template <class T>
void expectMedianSplitMatchesOneDevice() {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  const SampleType type = std::is_same_v<T, float> ? SampleType::f32 : SampleType::f64;
  const auto one = makeGpuMedianBackend(onDevices({0}), test::firstDevice());
  for (const std::vector<int>& devices : kForcedSplits) {
    const auto split = makeGpuMedianBackend(onDevices(devices), test::firstDevice());
    for (BoundaryMode mode : kAllModes) {
      for (std::size_t window : {1, 9, 101, 2049}) {  // registers, the smallest and the largest tile
        const FilterSpec spec = makeMedianFilter(window, mode);
        ASSERT_EQ(split->whyNot(spec, type), "");
        // 0, 1, smaller than the window, around and not a multiple of the split's 4096-sample cuts.
        for (std::size_t n : {0, 1, 2, 100, 4095, 4097, 8192 * 3 + 7, 100003}) {
          const std::vector<double> wide = test::randomSignal(n, rng);
          std::vector<T> in(wide.begin(), wide.end());
          if (n > 10) in[n / 2] = in[n / 3];  // ties
          std::vector<T> expected(n, std::numeric_limits<T>::quiet_NaN()), actual(n, std::numeric_limits<T>::quiet_NaN());
          one->filter(std::span<const T>(in), spec, std::span<T>(expected), RunOptions{});
          split->filter(std::span<const T>(in), spec, std::span<T>(actual), RunOptions{});
          ASSERT_EQ(bitMismatches(expected, actual), 0u)
              << "devices " << devices.size() << " W " << window << " n " << n << " " << toString(mode);
          if (window * n > 10'000'000) continue;  // the serial reference takes seconds; GpuMedian covers it
          std::vector<T> reference(n, std::numeric_limits<T>::quiet_NaN());
          medianFilterReference(std::span<const T>(in), window, mode, std::span<T>(reference));
          ASSERT_EQ(bitMismatches(reference, actual), 0u) << "W " << window << " n " << n << " " << toString(mode);
        }
      }
    }
  }
}

TEST(GpuDeviceList, MedianSplitGivesTheSameBitsAsOneDeviceFloat64) { expectMedianSplitMatchesOneDevice<double>(); }
TEST(GpuDeviceList, MedianSplitGivesTheSameBitsAsOneDeviceFloat32) { expectMedianSplitMatchesOneDevice<float>(); }

// Sizes whose extension (n + 2 x pad) falls below, on and around multiples of the scan's groups
// (kSosScanGroupChunks chunks of kSosScanChunk samples), so forward and backward cuts both coincide and differ.
std::vector<std::size_t> scanSizes(const Sections& sections) {
  const std::size_t pad = sosfiltfiltPadLength(sections), group = std::size_t{kSosScanChunk} * kSosScanGroupChunks;
  return {pad + 1,         1023,           group - 2 * pad,     group - 2 * pad + 1, 2 * group - 2 * pad,
          2 * group + 513, 3 * group - 77, 5 * group + 4099 - 2 * pad, 300001};
}

TEST(GpuDeviceList, SosScanSplitGivesTheSameBitsAsOneDevice) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  for (const ButterworthSpec& design : {ButterworthSpec{4, 0.2}, ButterworthSpec{8, 0.1, 0.3, BandType::Bandpass}}) {
    const Sections sections = butterworthSections(design);
    for (std::size_t n : scanSizes(sections)) {
      const std::vector<double> x = test::randomSignal(n, rng);
      std::vector<double> expected(n, std::nan("")), serial(n, std::nan(""));
      const GpuFilterResult one = sosfiltfiltCuda(sections, x, expected, std::vector<int>{0});
      ASSERT_EQ(one.status, GpuStatus::Ok) << one.reason;
      sosfiltfilt(sections, x, serial);
      for (const std::vector<int>& devices : kForcedSplits) {
        std::vector<double> actual(n, std::nan(""));
        const GpuFilterResult split = sosfiltfiltCuda(sections, x, actual, devices);
        ASSERT_EQ(split.status, GpuStatus::Ok) << split.reason;
        ASSERT_EQ(bitMismatches(expected, actual), 0u) << "order " << design.order << " n " << n << " parts " << devices.size();
        EXPECT_EQ(split.errorBound, one.errorBound);
        double worst = 0;
        for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(actual[i] - serial[i]));
        EXPECT_LE(worst, split.errorBound) << "n " << n;
      }
    }
  }
}

TEST(GpuDeviceList, SosScanEngineSplitGivesTheSameBitsForBothSampleTypes) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  const FilterSpec spec = makeButterworthFilter({6, 0.05}, true);
  const auto one = makeGpuSosScanBackend(onDevices({0}), test::firstDevice());
  const auto split = makeGpuSosScanBackend(onDevices({0, 0}), test::firstDevice());
  for (std::size_t n : {std::size_t{200}, std::size_t{131072 + 3}}) {
    const std::vector<double> x = test::randomSignal(n, rng);
    std::vector<double> a(n, std::nan("")), b(n, std::nan(""));
    one->filter(std::span<const double>(x), spec, std::span<double>(a), RunOptions{});
    split->filter(std::span<const double>(x), spec, std::span<double>(b), RunOptions{});
    EXPECT_EQ(bitMismatches(a, b), 0u) << "n " << n;
    const std::vector<float> narrow(x.begin(), x.end());
    std::vector<float> fa(n, std::nanf("")), fb(n, std::nanf(""));
    one->filter(std::span<const float>(narrow), spec, std::span<float>(fa), RunOptions{});
    split->filter(std::span<const float>(narrow), spec, std::span<float>(fb), RunOptions{});
    EXPECT_EQ(bitMismatches(fa, fb), 0u) << "n " << n;
  }
}

TEST(GpuDeviceList, WelchSplitGivesTheSameBitsAsOneDevice) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  // Segment counts 1 (one range), below, at and above the 8 sum ranges, and many.
  for (std::size_t segment : {std::size_t{2}, std::size_t{256}, std::size_t{1000}}) {
    for (std::size_t segments : {1, 2, 7, 8, 9, 301}) {
      const std::size_t step = segment - segment / 2;
      const std::size_t length = (segments - 1) * step + segment + segments % 3;  // not always a whole segment
      std::vector<double> x = test::randomSignal(length, rng);
      for (double& v : x) v += 50.0;
      for (auto detrend : {Detrend::constant, Detrend::none}) {
        for (std::size_t chunk : {std::size_t{0}, std::size_t{3}}) {
          const WelchOptions o{segment, std::nullopt, SpectrumWindow::hann, SpectrumScaling::density, detrend, 1e3};
          const GpuSpectrumRun one = welchGpu(x, o, chunk, {0});
          ASSERT_TRUE(one.ok) << one.message;
          for (const std::vector<int>& devices : kForcedSplits) {
            const GpuSpectrumRun split = welchGpu(x, o, chunk, devices);
            ASSERT_TRUE(split.ok) << split.message;
            ASSERT_EQ(bitMismatches(one.spectrum.power, split.spectrum.power), 0u)
                << "segment " << segment << " segments " << segments << " chunk " << chunk << " parts " << devices.size();
            ASSERT_EQ(bitMismatches(one.spectrum.frequency, split.spectrum.frequency), 0u);
          }
          // And the one-device result is still welch()'s within the stated bound.
          const Spectrum cpu = welch(x, o);
          double maxAbs = 0;
          for (double v : x) maxAbs = std::max(maxAbs, std::abs(v));
          const double bound = spectrumAgreementBound(o, maxAbs, x.size());
          for (std::size_t k = 0; k < cpu.power.size(); ++k) ASSERT_NEAR(one.spectrum.power[k], cpu.power[k], bound);
        }
      }
    }
  }
}

}  // namespace
}  // namespace siglab
