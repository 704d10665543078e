#include "siglab/job.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// A GPU engine as a machine without a GPU has it: listed, refusing every spec with the reason.
class AbsentGpuEngine final : public FilterBackend {
 public:
  explicit AbsentGpuEngine(std::string reason = "no CUDA device", std::string name = "gpu-tuned")
      : reason_(std::move(reason)), name_(std::move(name)) {}
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return "test"; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return reason_; }
  std::string reason_;
  std::string name_;
  FilterPass filter(std::span<const double>, const FilterSpec&, std::span<double>, const RunOptions&,
                    const Progress&) override {
    throw std::logic_error("ran although whyNot refused");
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw std::logic_error("ran although whyNot refused");
  }
};

BackendList cpuEngines(bool withGpu = true) {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  if (withGpu) engines.push_back(std::make_unique<AbsentGpuEngine>());
  return engines;
}

TEST(Job, SelectsEnginesByNameAndNamesTheKnownOnesWhenOneIsUnknown) {
  const BackendList engines = cpuEngines();
  EXPECT_EQ(selectEngines(engines, "all").size(), 4u);
  const auto two = selectEngines(engines, "cpu-running,cpu-serial,cpu-running");
  ASSERT_EQ(two.size(), 2u);
  EXPECT_EQ(two[0]->name(), "cpu-running");
  try {
    selectEngines(engines, "cpu-serial,warp-drive");
    ADD_FAILURE() << "an unknown engine was accepted";
  } catch (const JobError& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown engine \"warp-drive\"; known: cpu-serial, cpu-parallel, cpu-running, gpu-tuned, all");
  }
}

TEST(Job, ApplyTakesOneEngineThatCanRunTheSpecAndSendsSeveralToCompare) {
  const BackendList engines = cpuEngines();
  Job job;
  job.spec = FilterSpec{{0.25, 0.5, 0.25}, BoundaryMode::Zero};
  job.engines = "cpu-parallel,cpu-serial";
  EXPECT_THROW(chooseApplyEngine(engines, job), JobError);
  job.engines = "all";
  try {
    chooseApplyEngine(engines, job);
    ADD_FAILURE();
  } catch (const JobError& e) {
    EXPECT_NE(std::string(e.what()).find("siglab-cli compare"), std::string::npos);
  }
  job.engines = "cpu-running";  // non-uniform taps: its own reason, before any run
  try {
    chooseApplyEngine(engines, job);
    ADD_FAILURE();
  } catch (const JobError& e) {
    EXPECT_NE(std::string(e.what()).find("uniform taps"), std::string::npos);
  }
  job.engines = "gpu-tuned";
  try {
    chooseApplyEngine(engines, job);
    ADD_FAILURE();
  } catch (const JobError& e) {
    EXPECT_NE(std::string(e.what()).find("no CUDA device"), std::string::npos);
  }
  job.engines = "cpu-serial";
  EXPECT_EQ(chooseApplyEngine(engines, job).engine->name(), "cpu-serial");
}

TEST(Job, AutoPassesOverEnginesThatCannotRunAndSaysWhy) {
  const BackendList engines = cpuEngines();
  const EngineChoice small = chooseAutoEngine(engines, makeMeanFilter(5), SampleType::f64);
  EXPECT_EQ(small.engine->name(), "cpu-parallel");
  EXPECT_NE(small.why.find("transfers"), std::string::npos) << small.why;
  EXPECT_EQ(chooseAutoEngine(engines, makeMeanFilter(kRunningMinWindow), SampleType::f64).engine->name(),
            "cpu-running");
  EXPECT_EQ(chooseAutoEngine(engines, FilterSpec{std::vector<double>(101, 0.01) , BoundaryMode::Zero},
                             SampleType::f32).engine->name(),
            "cpu-running");
  FilterSpec gaussianLike{std::vector<double>(kGpuMinWindow, 0.01), BoundaryMode::Zero};
  gaussianLike.taps[50] = 0.02;
  const EngineChoice wide = chooseAutoEngine(engines, gaussianLike, SampleType::f64);
  EXPECT_EQ(wide.engine->name(), "cpu-parallel");  // gpu-tuned would come first, but cannot run here
  EXPECT_NE(wide.why.find("no GPU"), std::string::npos) << wide.why;
}

TEST(Job, AutoTakesAUsableGpuForWideWindowsOnly) {
  BackendList engines = cpuEngines(false);
  engines.push_back(std::make_unique<AbsentGpuEngine>(""));  // a GPU that can run anything
  FilterSpec wide{std::vector<double>(kGpuMinWindow, 0.01), BoundaryMode::Zero};
  wide.taps[0] = 0.02;
  EXPECT_EQ(chooseAutoEngine(engines, wide, SampleType::f64).engine->name(), "gpu-tuned");
  EXPECT_EQ(chooseAutoEngine(engines, makeMeanFilter(5), SampleType::f64).engine->name(), "cpu-parallel");
  EXPECT_EQ(chooseAutoEngine(engines, makeMeanFilter(kGpuMinWindow), SampleType::f64).engine->name(), "cpu-running");
}

// Random positive taps: nothing uniform for cpu-running.
FilterSpec unevenTaps(std::size_t window) {
  FilterSpec spec{std::vector<double>(window, 0.01), BoundaryMode::Zero};
  spec.taps[window / 2] = 0.02;
  return spec;
}

TEST(Job, AutoTakesCpuFftFromTheMeasuredCrossoverOn) {
  BackendList engines = cpuEngines();
  engines.push_back(std::make_unique<CpuFftBackend>());
  EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(kCpuFftMinWindow - 2), SampleType::f64).engine->name(),
            "cpu-parallel");
  const EngineChoice fft = chooseAutoEngine(engines, unevenTaps(kCpuFftMinWindow), SampleType::f64);
  EXPECT_EQ(fft.engine->name(), "cpu-fft");
  EXPECT_NE(fft.why.find(std::to_string(kCpuFftMinWindow)), std::string::npos) << fft.why;
  EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(8001), SampleType::f64).engine->name(), "cpu-fft");
  // A mean filter stays on the O(N) running sum; float32 (no cpu-fft path) on cpu-parallel.
  EXPECT_EQ(chooseAutoEngine(engines, makeMeanFilter(kCpuFftMinWindow), SampleType::f64).engine->name(), "cpu-running");
  EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(kCpuFftMinWindow), SampleType::f32).engine->name(), "cpu-parallel");
}

TEST(Job, AutoTakesGpuFftAboveItsCrossoverAndGpuTunedBelow) {
  BackendList engines = cpuEngines(false);
  engines.push_back(std::make_unique<CpuFftBackend>());
  engines.push_back(std::make_unique<AbsentGpuEngine>("", "gpu-tuned"));  // GPUs that can run anything
  engines.push_back(std::make_unique<AbsentGpuEngine>("", "gpu-fft"));
  static_assert(kCpuFftMinWindow < kGpuMinWindow && kGpuMinWindow < kGpuFftMinWindow);
  EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(kGpuMinWindow), SampleType::f64).engine->name(), "gpu-tuned");
  EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(kGpuFftMinWindow - 2), SampleType::f64).engine->name(), "gpu-tuned");
  EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(kGpuFftMinWindow), SampleType::f64).engine->name(), "gpu-fft");
  // Without a usable GPU the same window goes to the CPU's FFT.
  BackendList noGpu = cpuEngines();
  noGpu.push_back(std::make_unique<CpuFftBackend>());
  noGpu.push_back(std::make_unique<AbsentGpuEngine>("no CUDA device", "gpu-fft"));
  EXPECT_EQ(chooseAutoEngine(noGpu, unevenTaps(kGpuFftMinWindow), SampleType::f64).engine->name(), "cpu-fft");
}

TEST(Job, AutoFallsBackWhenItsChoiceRefusesTheSamples) {
  const BackendList engines = cpuEngines();
  std::mt19937_64 rng(test::freshSeed());
  std::vector<double> in = test::randomSignal(5000, rng);
  in[1234] = NAN;  // cpu-running refuses a running sum through a NaN
  Job job;
  job.spec = makeMeanFilter(51);
  job.read.allowNonFinite = true;
  const AppliedJob applied = applyJob(engines, in, job);
  EXPECT_EQ(applied.result.engine, "cpu-parallel");
  ASSERT_EQ(applied.fellBack.size(), 1u);
  EXPECT_NE(applied.fellBack[0].find("finite"), std::string::npos);
  EXPECT_TRUE(applied.result.verification.passed());
  EXPECT_GT(applied.result.verification.checked, 0u);
}

TEST(Job, ApplyWritesTheChosenEnginesResult) {
  const BackendList engines = cpuEngines();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(4097, rng);
  Job job;
  job.spec = makeMeanFilter(kRunningMinWindow + 2);
  job.engines = "cpu-running";
  const AppliedJob applied = applyJob(engines, in, job);
  std::vector<double> expected(in.size());
  filterRunning(in, job.spec, expected);
  EXPECT_EQ(applied.result.engine, "cpu-running");
  EXPECT_EQ(applied.result.output, expected);  // its own result, not cpu-serial's
  EXPECT_FALSE(applied.result.usesGpu);
}

TEST(Job, NarrowingToFloat32NamesTheFirstSampleOutOfRange) {
  const std::vector<double> fine = {1.5, -2.25};
  EXPECT_EQ(narrowToFloat32(fine, "in.txt"), (std::vector<float>{1.5f, -2.25f}));
  const std::vector<double> huge = {1.0, 1e300};
  try {
    narrowToFloat32(huge, "in.txt");
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), "in.txt: sample 2 (1e+300) is outside the float32 range; use --dtype f64");
  }
}

TEST(Job, CompareMeasuresTheNamedEnginesAndChecksThem) {
  const BackendList engines = cpuEngines();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(3001, rng);
  Job job;
  job.spec = makeMeanFilter(7, BoundaryMode::Mirror);
  job.engines = "cpu-parallel,gpu-tuned";
  job.measure = {1, 2};
  const Comparison c = compareEngines(engines, in, job);
  ASSERT_EQ(c.results.size(), 3u);  // cpu-serial first, as the reference
  EXPECT_TRUE(c.find("cpu-parallel")->agrees);
  EXPECT_EQ(c.find("gpu-tuned")->run.status, RunStatus::Unavailable);
  EXPECT_TRUE(c.find("gpu-tuned")->usesGpu);
  EXPECT_EQ(c.find("cpu-parallel")->run.kernel.samples, 2);
}

}  // namespace
}  // namespace siglab
