// Every CPU engine of every kind reports progress during its run and stops soon after a cancel
// (issue 24, item 14: a median or a Butterworth went on for a minute after Cancel, and showed no
// progress). Measured by work, not by time: a run cancelled at its first report must throw
// Cancelled having done a small part of the signal, whatever the machine's load.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <limits>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "siglab/comparison.hpp"
#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/job.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/taps.hpp"

namespace siglab {
namespace {

// 64 of the engines' largest pieces (65536 outputs): a run cancelled at its first report stops
// after a few of them, far below half, even with every core of a large machine finishing its own.
constexpr std::size_t kCancelledSamples = std::size_t{64} << 16;
// A few pieces of every engine: enough for several reports, cheap enough for CI.
constexpr std::size_t kReportedSamples = 100'000;

std::vector<double> randomSignal(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> x(n);
  for (double& v : x) v = dist(rng);
  return x;
}

struct Kind {
  std::string name;
  FilterSpec spec;
};

std::vector<Kind> everyKind() {
  ButterworthSpec lowpass;
  lowpass.order = 4;
  lowpass.cutoff = 0.1;
  FilterSpec taps;
  taps.taps = randomSignal(257, 9);
  return {{"mean W=5", makeMeanFilter(5)},
          {"mean W=51", makeMeanFilter(51)},
          {"taps W=257", taps},
          {"gaussian sigma=4", makeGaussianFilter(4.0)},
          {"median W=51", makeMedianFilter(51, BoundaryMode::Reflect)},
          {"savgol W=51 order=3", makeSavgolFilter(51, 3, 0, true, BoundaryMode::Reflect)},
          {"butterworth causal", makeButterworthFilter(lowpass, false)},
          {"butterworth zero phase", makeButterworthFilter(lowpass, true)}};
}

std::vector<std::unique_ptr<FilterBackend>> cpuEngines() {
  std::vector<std::unique_ptr<FilterBackend>> engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  engines.push_back(std::make_unique<CpuFftBackend>());
  return engines;
}

// What a run reported: how many times, and the largest fraction (reports from several threads
// may cross, so the largest is how far the run got).
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
void checkEngine(FilterBackend& engine, const Kind& kind, const std::vector<Sample>& big, const std::vector<Sample>& small) {
  const std::string what = std::string(engine.name()) + ", " + kind.name;
  {  // A whole run reports more than once, up to all of it.
    Reports reports;
    Progress progress;
    progress.onProgress = [&](double f) { reports.add(f); };
    std::vector<Sample> out(small.size());
    engine.filter(std::span<const Sample>(small), kind.spec, std::span<Sample>(out), RunOptions{}, progress);
    EXPECT_GE(reports.count, 2) << what << ": progress reported " << reports.count << " times";
    EXPECT_EQ(reports.largest, 1.0) << what;
  }
  {  // Cancelled at its first report: it stops having done a small part of the signal.
    Reports reports;
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelFlag = &cancel;
    progress.onProgress = [&](double f) {
      reports.add(f);
      cancel = true;
    };
    std::vector<Sample> out(big.size());
    EXPECT_THROW(engine.filter(std::span<const Sample>(big), kind.spec, std::span<Sample>(out), RunOptions{}, progress),
                 Cancelled)
        << what;
    EXPECT_GE(reports.count, 1) << what;
    EXPECT_LT(reports.largest, 0.5) << what << ": went on to " << reports.largest << " of the signal after Cancel";
  }
}

TEST(EngineProgress, EveryCpuEngineOfEveryKindReportsAndStopsSoonAfterCancel) {
  const std::vector<double> big = randomSignal(kCancelledSamples, 1);
  const std::vector<double> small(big.begin(), big.begin() + kReportedSamples);
  int checked = 0;
  for (const Kind& kind : everyKind()) {
    for (const auto& engine : cpuEngines()) {
      if (!engine->whyNot(kind.spec, SampleType::f64).empty()) continue;
      checkEngine(*engine, kind, big, small);
      ++checked;
    }
  }
  EXPECT_GE(checked, 8 * 2 + 2 + 5);  // serial and parallel every kind, running the means, fft the correlations
}

TEST(EngineProgress, Float32SectionsAndMediansReportAndStopSoonAfterCancel) {
  const std::vector<double> wide = randomSignal(kCancelledSamples, 2);
  const std::vector<float> big(wide.begin(), wide.end());
  const std::vector<float> small(big.begin(), big.begin() + kReportedSamples);
  for (const Kind& kind : everyKind()) {
    if (kind.spec.isCorrelation()) continue;
    CpuSerialBackend serial;
    CpuParallelBackend parallel;
    checkEngine<float>(serial, kind, big, small);
    checkEngine<float>(parallel, kind, big, small);
  }
}

TEST(EngineProgress, AComparisonReportsInsideEachEngineAndStopsInsideTheReference) {
  const std::vector<double> big = randomSignal(kCancelledSamples, 3);
  const std::vector<double> small(big.begin(), big.begin() + kReportedSamples);
  const FilterSpec median = makeMedianFilter(101, BoundaryMode::Reflect);
  CpuParallelBackend parallel;
  FilterBackend* const engines[] = {&parallel};
  CompareOptions options;
  options.measure.warmups = 0;
  options.measure.repeats = 1;
  {
    Reports reports;
    Progress progress;
    progress.onProgress = [&](double f) { reports.add(f); };
    runComparison(std::span<FilterBackend* const>(engines), std::span<const double>(small), median, options, {}, progress);
    EXPECT_GT(reports.count, 4) << "more than one report for each of the two engines";
    EXPECT_EQ(reports.largest, 1.0);
  }
  Reports reports;
  std::atomic<bool> cancel{false};
  Progress progress;
  progress.cancelFlag = &cancel;
  progress.onProgress = [&](double f) {
    reports.add(f);
    cancel = true;
  };
  EXPECT_THROW(runComparison(std::span<FilterBackend* const>(engines), std::span<const double>(big), median, options,
                             {}, progress),
               Cancelled);
  EXPECT_LT(reports.largest, 0.25) << "the reference (cpu-serial) is the first half of the comparison";
}

// applyFilter's verification, the last tenth of the bar, reports and looks at Cancel too: a full
// pass over a Butterworth's every output (--verify-all) or a median checked at every output
// (--verify N >= samples) cancelled as the bar passes 0.9 stops a small part into its work.
TEST(EngineProgress, VerificationReportsAndStopsSoonAfterCancel) {
  const std::vector<double> big = randomSignal(std::size_t{1} << 20, 5);
  ButterworthSpec lowpass;
  lowpass.order = 4;
  lowpass.cutoff = 0.1;
  Job everyOutput;
  everyOutput.verifyRandom = big.size();
  everyOutput.verifyAll = true;
  const Kind kinds[] = {{"butterworth causal", makeButterworthFilter(lowpass, false)},
                        {"butterworth zero phase", makeButterworthFilter(lowpass, true)},
                        {"median W=51", makeMedianFilter(51, BoundaryMode::Reflect)}};
  CpuParallelBackend parallel;
  for (const Kind& kind : kinds) {
    Job job = everyOutput;
    job.spec = kind.spec;
    Reports reports;
    std::atomic<bool> cancel{false};
    Progress progress;
    progress.cancelFlag = &cancel;
    progress.onProgress = [&](double f) {
      reports.add(f);
      if (f > 0.9) cancel = true;  // the engine's part ends at 0.9: verification has begun
    };
    EXPECT_THROW(applyFilter(parallel, std::span<const double>(big), job, progress), Cancelled) << kind.name;
    EXPECT_GT(reports.largest, 0.9) << kind.name << ": verification reported no progress";
    EXPECT_LT(reports.largest, 0.95) << kind.name << ": verification went on to " << reports.largest
                                     << " of the bar after Cancel";
  }
}

// scipy's sosfilt loop, sample by sample from `z`, with nothing cut.
std::vector<double> plainSosfilt(const Sections& sections, std::vector<double> x, std::vector<double> z) {
  for (double& v : x) {
    for (std::size_t k = 0; k < sections.size(); ++k) {
      const Section& s = sections[k];
      const double y = s[0] * v + z[2 * k];
      z[2 * k] = s[1] * v - s[4] * y + z[2 * k + 1];
      z[2 * k + 1] = s[2] * v - s[5] * y;
      v = y;
    }
  }
  return x;
}

// sosfiltfilt as scipy writes it: odd extension, forward, reversed, forward again, reversed.
std::vector<double> plainSosfiltfilt(const Sections& sections, const std::vector<double>& x) {
  const std::size_t n = x.size(), edge = sosfiltfiltPadLength(sections);
  std::vector<double> y;
  for (std::size_t j = 0; j < edge; ++j) y.push_back(2 * x[0] - x[edge - j]);
  y.insert(y.end(), x.begin(), x.end());
  for (std::size_t j = 0; j < edge; ++j) y.push_back(2 * x[n - 1] - x[n - 2 - j]);
  const SosState zi = sosfiltZi(sections);
  for (int pass = 0; pass < 2; ++pass) {
    SosState z(zi);
    for (double& v : z) v *= y.front();
    y = plainSosfilt(sections, y, z);
    std::reverse(y.begin(), y.end());
  }
  return {y.begin() + static_cast<std::ptrdiff_t>(edge), y.begin() + static_cast<std::ptrdiff_t>(edge + n)};
}

// The serial sections run in stretches between looks at Cancel (13107 samples for 16 sections),
// and the zero-phase one backwards in place of a reversed copy: the same bits as the plain loops.
TEST(EngineProgress, SectionsCutIntoStretchesChangeNoBits) {
  ButterworthSpec design;
  design.order = 32;
  design.cutoff = 0.2;
  const Sections sections = butterworthSections(design);
  const std::vector<double> x = randomSignal(100'003, 4);
  std::vector<double> y(x.size());
  SosState state;
  sosfilt(sections, x, y, state);
  EXPECT_TRUE(y == plainSosfilt(sections, x, SosState(2 * sections.size(), 0.0)));
  sosfiltfilt(sections, x, y);
  EXPECT_TRUE(y == plainSosfiltfilt(sections, x));
}

}  // namespace
}  // namespace siglab
