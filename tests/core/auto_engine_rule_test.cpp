// The one auto rule (auto_engine_rule.hpp): its table, read row by row around each threshold without
// a GPU, and the filter kinds' (chooseAutoEngine) and the stages' (chooseStageEngine) choices as its.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "engine_test_support.hpp"
#include "siglab/auto_engine_rule.hpp"
#include "siglab/job.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/stage_engine_rule.hpp"

namespace siglab {
namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr AutoWork kStageWorks[] = {AutoWork::RateChange, AutoWork::Spectrogram, AutoWork::FindPeaks, AutoWork::Hilbert};

TEST(AutoEngineRule, TheTableHoldsEachThresholdOnce) {
  EXPECT_EQ(std::size(kAutoThresholds), 9u);  // a row a work
  EXPECT_EQ(autoThreshold(AutoWork::Correlation).least, 101u);
  EXPECT_EQ(autoThreshold(AutoWork::Correlation).leastSamples, std::uint64_t{1} << 20);
  EXPECT_TRUE(autoThreshold(AutoWork::Welch).gpu);
  EXPECT_EQ(autoThreshold(AutoWork::Median).least, 0u);
  for (const AutoWork work : kStageWorks) EXPECT_EQ(autoThreshold(work).least, std::uint64_t{1} << 20);
  const AutoThreshold& sections = autoThreshold(AutoWork::SecondOrderSections);
  EXPECT_FALSE(sections.gpu);  // the block scan on the CPU; no GPU engine is auto's for sections
  EXPECT_EQ(sections.most, 4096u);
  EXPECT_EQ(autoThreshold(AutoWork::CorrelateFft).least, 256u);
  EXPECT_EQ(autoThreshold(AutoWork::CorrelateFft).leastSamples, std::uint64_t{1} << 20);
}

// Each GPU row: one below its size the CPU, from it the GPU engine that can run the work, with the
// sizes in the reason; the CPU with the GPU's own reason where none can.
TEST(AutoEngineRule, EveryGpuRowTakesTheGpuFromItsSizeOnAndSaysWhy) {
  for (const AutoThreshold& row : kAutoThresholds) {
    if (!row.gpu) continue;
    AutoQuestion q;
    q.work = row.work;
    q.gpuEngine = "gpu-x";
    q.size = row.least;
    std::vector<AutoPick> order = autoEngineOrder(q);
    ASSERT_FALSE(order.empty());
    EXPECT_EQ(order.front().engine, "gpu-x") << static_cast<int>(row.work);
    if (row.least > 0) {
      EXPECT_TRUE(has(order.front().why, std::to_string(row.least))) << order.front().why;
      q.size = row.least - 1;
      order = autoEngineOrder(q);
      EXPECT_EQ(order.front().engine, "cpu-parallel") << static_cast<int>(row.work);
      EXPECT_TRUE(has(order.front().why, std::to_string(row.least - 1)) && has(order.front().why, "< " + std::to_string(row.least)))
          << order.front().why;
    }
    q.size = row.least;
    q.gpuEngine.clear();
    q.gpuWhyNot = "gpu-x: no usable CUDA GPU was found";
    EXPECT_EQ(autoEngineOrder(q).front().engine, "cpu-parallel") << static_cast<int>(row.work);
  }
}

// Sections: the block scan (its bound checked by the rule) up to the row's fade, the recursion past it.
TEST(AutoEngineRule, SectionsTakeTheBlockScanUpToTheRowsFadeThenTheRecursion) {
  std::vector<AutoPick> order = autoEngineOrder({AutoWork::SecondOrderSections, kSosScanDefaultFade, "gpu-x", {}, false});
  ASSERT_EQ(order.size(), 2u);
  EXPECT_EQ(order[0].engine, "cpu-parallel");
  EXPECT_TRUE(order[0].boundChecked);
  EXPECT_TRUE(has(order[0].why, "within 4096 samples")) << order[0].why;
  EXPECT_EQ(order[1].engine, "cpu-serial");
  order = autoEngineOrder({AutoWork::SecondOrderSections, kSosScanDefaultFade + 1, {}, {}, false});
  ASSERT_EQ(order.size(), 1u);
  EXPECT_EQ(order[0].engine, "cpu-serial");
  EXPECT_TRUE(has(order[0].why, "4097 samples > 4096")) << order[0].why;
  order = autoEngineOrder({AutoWork::SecondOrderSections, kNoLimit, {}, {}, false});  // a pole on the unit circle
  EXPECT_TRUE(has(order[0].why, "unending")) << order[0].why;
}

TEST(AutoEngineRule, AFilterFallsBackToTheExactCpuEnginesAStageStopsAtItsPick) {
  AutoQuestion q{AutoWork::Correlation, 513, "gpu-tuned", {}, false};
  std::vector<AutoPick> order = autoEngineOrder(q);
  ASSERT_EQ(order.size(), 3u);
  EXPECT_EQ(order[1].engine, "cpu-parallel");
  EXPECT_EQ(order[2].engine, "cpu-serial");
  for (const AutoWork work : kStageWorks) EXPECT_EQ(autoEngineOrder({work, 1u << 22, "gpu-x", {}, false}).size(), 1u);
  // Find-peaks' GPU engine takes the whole signal at once: a streamed run stays on the CPU.
  EXPECT_EQ(autoEngineOrder({AutoWork::FindPeaks, 1u << 22, "gpu-x", {}, true}).front().engine, "cpu-parallel");
  EXPECT_EQ(autoEngineOrder({AutoWork::RateChange, 1u << 22, "gpu-x", {}, true}).front().engine, "gpu-x");
}

// A correlation's GPU row counts the signal's length too: a short signal's whole pass on the CPU is
// shorter than the GPU's copies and launches; more taps admit the GPU on fewer samples.
TEST(AutoEngineRule, CorrelationTakesTheGpuOnlyForASignalLongEnough) {
  const std::uint64_t least = kGpuStageMinSamples;
  AutoQuestion q{AutoWork::Correlation, kGpuMinWindow, "gpu-tuned", {}, false, 1000};
  std::vector<AutoPick> order = autoEngineOrder(q);
  EXPECT_EQ(order.front().engine, "cpu-parallel");
  EXPECT_TRUE(has(order.front().why, "1000 samples x 101 taps < 1048576 x 101")) << order.front().why;
  q.samples = least - 1;
  EXPECT_EQ(autoEngineOrder(q).front().engine, "cpu-parallel");
  q.samples = least;
  EXPECT_EQ(autoEngineOrder(q).front().engine, "gpu-tuned");
  q.samples = kNoLimit;  // a stream of unknown length
  EXPECT_EQ(autoEngineOrder(q).front().engine, "gpu-tuned");
  q.size = 1001;  // ten times the taps: about a tenth of the samples
  q.samples = (least * kGpuMinWindow + 1000) / 1001;
  EXPECT_EQ(autoEngineOrder(q).front().engine, "gpu-tuned");
  --q.samples;
  EXPECT_EQ(autoEngineOrder(q).front().engine, "cpu-parallel");
}

// correlate's FFT: the GPU's from the row's taps on a signal of the stages' length (method fft: at any
// taps), else the CPU's with why not the GPU; a CPU-only machine's answer is the CPU's.
TEST(AutoEngineRule, CorrelateFftTakesTheGpuFromItsTapsOnALongSignal) {
  AutoQuestion q{AutoWork::CorrelateFft, kGpuFftMinTaps, "gpu-fft", {}, false, kGpuStageMinSamples};
  AutoPick pick = autoEngineOrder(q).front();
  EXPECT_EQ(pick.engine, "gpu-fft");
  EXPECT_TRUE(has(pick.why, "a template of 256 taps >= 256")) << pick.why;
  q.size = 50'000;
  q.samples = kNoLimit;  // unknown: not a reason to stay on the CPU
  EXPECT_EQ(autoEngineOrder(q).front().engine, "gpu-fft");
  q.size = kGpuFftMinTaps - 1;
  q.samples = kGpuStageMinSamples;
  pick = autoEngineOrder(q).front();
  EXPECT_EQ(pick.engine, "cpu-parallel");
  EXPECT_TRUE(has(pick.why, "not gpu-fft: a template of 255 taps < 256")) << pick.why;
  q.fftNamed = true;  // method fft: the FFT runs whatever the taps; the GPU's where it can
  EXPECT_EQ(autoEngineOrder(q).front().engine, "gpu-fft");
  q.size = 50'000;
  q.samples = kGpuStageMinSamples - 1;
  pick = autoEngineOrder(q).front();
  EXPECT_EQ(pick.engine, "cpu-parallel");
  EXPECT_TRUE(has(pick.why, "1048575 samples < 1048576")) << pick.why;
  q.samples = kGpuStageMinSamples;
  q.gpuEngine.clear();  // a CPU-only machine
  q.gpuWhyNot = "gpu-fft: no usable CUDA GPU was found";
  pick = autoEngineOrder(q).front();
  EXPECT_EQ(pick.engine, "cpu-parallel");
  EXPECT_EQ(pick.why, "no GPU engine computes correlate's FFT here: gpu-fft: no usable CUDA GPU was found");
  EXPECT_EQ(autoEngineOrder(q).size(), 1u);
}

// A GPU engine that runs every filter exactly, named as auto's GPU engines are.
using ExactGpu = test::GpuEngineStub;

// The filter kinds' and the stages' choices are the one rule's, around each threshold.
TEST(AutoEngineRule, FilterKindsAndStagesChooseAsTheRuleSays) {
  BackendList engines = test::cpuEngines();
  engines.push_back(std::make_unique<ExactGpu>("gpu-tuned"));
  engines.push_back(std::make_unique<ExactGpu>("gpu-median"));
  for (const std::size_t w : {kGpuMinWindow - 2, kGpuMinWindow, kGpuMinWindow + 2}) {
    FilterSpec taps{std::vector<double>(w, 0.01), BoundaryMode::Zero};
    taps.taps[w / 2] = 0.02;
    const EngineChoice chosen = chooseAutoEngine(engines, taps, SampleType::f64);
    const AutoPick rule = autoEngineOrder({AutoWork::Correlation, w, "gpu-tuned", {}, false}).front();
    EXPECT_EQ(chosen.engine->name(), rule.engine) << w;
    EXPECT_EQ(chosen.why, rule.why) << w;
    EXPECT_EQ(chosen.engine->name(), w >= kGpuMinWindow ? "gpu-tuned" : "cpu-parallel") << w;
    const EngineChoice shortSignal = chooseAutoEngine(engines, taps, SampleType::f64, 1000);
    const AutoPick shortRule = autoEngineOrder({AutoWork::Correlation, w, "gpu-tuned", {}, false, 1000}).front();
    EXPECT_EQ(shortSignal.engine->name(), "cpu-parallel") << w;
    EXPECT_EQ(shortSignal.why, shortRule.why) << w;
    EXPECT_EQ(chooseAutoEngine(engines, makeMedianFilter(w | 1, BoundaryMode::Reflect), SampleType::f64).engine->name(),
              "gpu-median") << w;
  }
  const FilterSpec sections = makeButterworthFilter({4, 0.1, 0, BandType::Lowpass, 0}, false);
  const auto fade = static_cast<std::uint64_t>(std::ceil(sosFadeLength(sections.sos.sections)));
  const EngineChoice scan = chooseAutoEngine(engines, sections, SampleType::f64);
  const AutoPick scanRule = autoEngineOrder({AutoWork::SecondOrderSections, fade, {}, {}, false}).front();
  EXPECT_EQ(scan.engine->name(), scanRule.engine);
  EXPECT_EQ(scan.why, scanRule.why);
  for (const GpuStageWork work : {GpuStageWork::RateChange, GpuStageWork::Spectrogram, GpuStageWork::FindPeaks,
                                  GpuStageWork::Hilbert}) {
    for (const std::uint64_t samples : {kGpuStageMinSamples - 1, kGpuStageMinSamples}) {
      StageEngineQuestion q;
      q.work = work;
      q.samples = samples;
      q.gpuEngine = "gpu-x";
      const StageEngineAnswer answer = chooseStageEngine(q);
      const AutoPick rule = autoEngineOrder({autoWorkOf(work), samples, "gpu-x", {}, false}).front();
      EXPECT_EQ(answer.engine, rule.engine);
      EXPECT_EQ(answer.why, rule.why);
      EXPECT_EQ(answer.engine, samples >= kGpuStageMinSamples ? "gpu-x" : "cpu-parallel");
    }
  }
}

}  // namespace
}  // namespace siglab
