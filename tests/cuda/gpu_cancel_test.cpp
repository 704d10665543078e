// gpu-median, gpu-sos-scan and GPU Welch report progress as their parts finish and stop at Cancel between
// parts (issue 24, item 14: a 200M-sample median at W = 101 ran its whole kernel before Cancel was
// seen). Measured by work, not by time: a run cancelled at its first report must throw Cancelled
// having reported a small part of the run. Splitting the launches changes no bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "shared_helpers.hpp"
#include "gpu_test_support.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_kind_backends.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/filter_kinds.hpp"

namespace siglab {
namespace {

// Several copy parts (4M samples each) of each engine.
constexpr std::size_t kCancelledSamples = (std::size_t{1} << 24) + 12345;
constexpr std::size_t kReportedSamples = 100'000;

using test::randomSignal;

// How often a run reported, and how far (reports from several threads may cross).
struct Reports {
  std::mutex mutex;
  int count = 0;
  double largest = 0.0;
  void add(double f) {
    const std::lock_guard lock(mutex);
    ++count;
    largest = std::max(largest, f);
  }
};

template <typename Sample>
void checkCancel(FilterBackend& engine, const FilterSpec& spec, const std::vector<Sample>& big,
                 const std::vector<Sample>& small) {
  const std::string what(engine.name());
  {  // A whole run reports more than once, up to all of it.
    Reports reports;
    Progress progress;
    progress.onProgress = [&](double f) { reports.add(f); };
    std::vector<Sample> out(small.size());
    engine.filter(std::span<const Sample>(small), spec, std::span<Sample>(out), RunOptions{}, progress);
    EXPECT_GE(reports.count, 2) << what;
    EXPECT_EQ(reports.largest, 1.0) << what;
  }
  {  // Cancelled before it starts: nothing runs.
    std::atomic<bool> cancel{true};
    Progress progress;
    progress.cancelFlag = &cancel;
    std::vector<Sample> out(small.size());
    EXPECT_THROW(engine.filter(std::span<const Sample>(small), spec, std::span<Sample>(out), RunOptions{}, progress),
                 Cancelled)
        << what;
  }
  {  // Cancelled at its first report: it stops a small part into the run.
    Reports reports;
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelFlag = &cancel;
    progress.onProgress = [&](double f) {
      reports.add(f);
      cancel = true;
    };
    std::vector<Sample> out(big.size());
    EXPECT_THROW(engine.filter(std::span<const Sample>(big), spec, std::span<Sample>(out), RunOptions{}, progress),
                 Cancelled)
        << what;
    EXPECT_GE(reports.count, 1) << what;
    EXPECT_LT(reports.largest, 0.5) << what << ": went on to " << reports.largest << " of the run after Cancel";
  }
}

TEST(GpuCancel, GpuMedianReportsAndStopsSoonAfterCancel) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const auto engine = makeGpuMedianBackend(test::firstDevice());
  const std::vector<double> big = randomSignal(kCancelledSamples, 1);
  const std::vector<double> small(big.begin(), big.begin() + kReportedSamples);
  const std::vector<float> bigFloat(big.begin(), big.end()), smallFloat(small.begin(), small.end());
  for (std::size_t window : {std::size_t{5}, std::size_t{101}}) {
    SCOPED_TRACE("W = " + std::to_string(window));
    const FilterSpec spec = makeMedianFilter(window, BoundaryMode::Reflect);
    checkCancel<double>(*engine, spec, big, small);
    checkCancel<float>(*engine, spec, bigFloat, smallFloat);
  }
}

TEST(GpuCancel, GpuSosScanReportsAndStopsSoonAfterCancel) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const auto engine = makeGpuSosScanBackend(test::firstDevice());
  const std::vector<double> big = randomSignal(kCancelledSamples, 2);
  const std::vector<double> small(big.begin(), big.begin() + kReportedSamples);
  checkCancel<double>(*engine, makeButterworthFilter({4, 0.1}, true), big, small);
}

// GPU Welch through the engine base's ChunkPipeline (issue 30): progress chunk by chunk, Cancel seen
// between chunks, on one device and split over two parts (their fractions averaged).
TEST(GpuCancel, GpuWelchReportsAndStopsSoonAfterCancel) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::vector<double> big = randomSignal(kCancelledSamples, 4);
  const std::vector<double> small(big.begin(), big.begin() + kReportedSamples);
  const int device = test::firstDevice().index;
  WelchOptions o;
  o.segment = 1024;
  for (const std::vector<int>& devices : {std::vector<int>{device}, std::vector<int>{device, device}}) {
    SCOPED_TRACE(std::to_string(devices.size()) + " part(s)");
    {  // A whole run reports more than once, up to all of it.
      Reports reports;
      Progress progress;
      progress.onProgress = [&](double f) { reports.add(f); };
      const GpuSpectrumRun run = welchGpu(small, o, 16, devices, progress);
      ASSERT_TRUE(run.ok) << run.message;
      EXPECT_GE(reports.count, 2);
      EXPECT_EQ(reports.largest, 1.0);
    }
    {  // Cancelled before it starts.
      std::atomic<bool> cancel{true};
      Progress progress;
      progress.cancelFlag = &cancel;
      EXPECT_THROW(welchGpu(small, o, 0, devices, progress), Cancelled);
    }
    {  // Cancelled at its first report: it stops a small part into the run.
      Reports reports;
      std::atomic<bool> cancel{false};
      Progress progress;
      progress.cancelFlag = &cancel;
      progress.onProgress = [&](double f) {
        reports.add(f);
        cancel = true;
      };
      EXPECT_THROW(welchGpu(big, o, 0, devices, progress), Cancelled);
      EXPECT_GE(reports.count, 1);
      EXPECT_LT(reports.largest, 0.5) << "went on to " << reports.largest << " of the run after Cancel";
    }
    // And the next run after a cancel is whole again: the same bits as a fresh one.
    const GpuSpectrumRun again = welchGpu(small, o, 16, devices), fresh = welchGpu(small, o, 16, {device});
    ASSERT_TRUE(again.ok && fresh.ok) << again.message << fresh.message;
    EXPECT_EQ(again.spectrum.power, fresh.spectrum.power);
  }
}

// A median in several launches of whole tiles (W = 2049: about a million outputs each) and copies
// in several parts: the same bits as cpu-parallel.
TEST(GpuCancel, AMedianInSeveralLaunchesChangesNoBits) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::vector<double> x = randomSignal((std::size_t{5} << 20) + 777, 3);
  for (std::size_t window : {std::size_t{9}, std::size_t{2049}}) {
    const FilterSpec spec = makeMedianFilter(window, BoundaryMode::Mirror);
    std::vector<double> expected(x.size()), actual(x.size());
    CpuParallelBackend cpu;
    cpu.filter(std::span<const double>(x), spec, std::span<double>(expected), RunOptions{}, {});
    const GpuFilterResult r = medianFilterCuda(std::span<const double>(x), window, spec.mode, std::span<double>(actual));
    ASSERT_EQ(r.status, GpuStatus::Ok) << r.reason;
    EXPECT_TRUE(std::equal(expected.begin(), expected.end(), actual.begin())) << "W = " << window;
  }
}

}  // namespace
}  // namespace siglab
