#include "siglab/job.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/taps.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// A GPU engine as a machine without a GPU has it: listed, refusing every spec with the reason.
// With `normWise`, its tolerance is relative to the signal's peak for uniform windows (as
// gpu-tuned's prefix sums) or for every window (as gpu-fft).
enum class FakeBound { Exact, NormWiseForUniform, NormWise };
class AbsentGpuEngine final : public FilterBackend {
 public:
  explicit AbsentGpuEngine(std::string reason = "no CUDA device", std::string name = "gpu-tuned",
                           FakeBound bound = FakeBound::Exact)
      : reason_(std::move(reason)), name_(std::move(name)), bound_(bound) {}
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override {
    const bool normWise = bound_ == FakeBound::NormWise || (bound_ == FakeBound::NormWiseForUniform && spec.isUniform());
    return normWise ? 1e-13 * maxAbsInput : 0.0;
  }
  std::string_view name() const override { return name_; }
  std::string_view description() const override { return "test"; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return reason_; }
  std::string reason_;
  std::string name_;
  FakeBound bound_;
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
  // cpu-running's running sums are bounded norm-wise: auto never takes them.
  EXPECT_EQ(chooseAutoEngine(engines, makeMeanFilter(51), SampleType::f64).engine->name(), "cpu-parallel");
  EXPECT_EQ(chooseAutoEngine(engines, FilterSpec{std::vector<double>(101, 0.01) , BoundaryMode::Zero},
                             SampleType::f32).engine->name(),
            "cpu-parallel");
  FilterSpec gaussianLike{std::vector<double>(kGpuMinWindow, 0.01), BoundaryMode::Zero};
  gaussianLike.taps[50] = 0.02;
  const EngineChoice wide = chooseAutoEngine(engines, gaussianLike, SampleType::f64);
  EXPECT_EQ(wide.engine->name(), "cpu-parallel");  // gpu-tuned would come first, but cannot run here
  EXPECT_NE(wide.why.find("no exact GPU engine"), std::string::npos) << wide.why;
}

TEST(Job, AutoTakesAUsableGpuForWideWindowsOnly) {
  BackendList engines = cpuEngines(false);
  engines.push_back(std::make_unique<AbsentGpuEngine>(""));  // a GPU that can run anything
  FilterSpec wide{std::vector<double>(kGpuMinWindow, 0.01), BoundaryMode::Zero};
  wide.taps[0] = 0.02;
  EXPECT_EQ(chooseAutoEngine(engines, wide, SampleType::f64).engine->name(), "gpu-tuned");
  EXPECT_EQ(chooseAutoEngine(engines, makeMeanFilter(5), SampleType::f64).engine->name(), "cpu-parallel");
  EXPECT_EQ(chooseAutoEngine(engines, makeMeanFilter(kGpuMinWindow), SampleType::f64).engine->name(), "gpu-tuned");
  // gpu-tuned's prefix-sum path for uniform windows is bounded norm-wise: then the CPU's exact sums.
  BackendList prefixSums = cpuEngines(false);
  prefixSums.push_back(std::make_unique<AbsentGpuEngine>("", "gpu-tuned", FakeBound::NormWiseForUniform));
  EXPECT_EQ(chooseAutoEngine(prefixSums, makeMeanFilter(kGpuMinWindow), SampleType::f64).engine->name(), "cpu-parallel");
  EXPECT_EQ(chooseAutoEngine(prefixSums, wide, SampleType::f64).engine->name(), "gpu-tuned");
}

// Random positive taps: nothing uniform for cpu-running.
FilterSpec unevenTaps(std::size_t window) {
  FilterSpec spec{std::vector<double>(window, 0.01), BoundaryMode::Zero};
  spec.taps[window / 2] = 0.02;
  return spec;
}

TEST(Job, AutoNeverTakesAnEngineBoundedOnlyNormWise) {
  BackendList engines = cpuEngines(false);
  engines.push_back(std::make_unique<CpuFftBackend>());
  engines.push_back(std::make_unique<AbsentGpuEngine>("", "gpu-fft", FakeBound::NormWise));  // GPUs that can run anything
  engines.push_back(std::make_unique<AbsentGpuEngine>("", "gpu-tuned", FakeBound::NormWiseForUniform));
  for (const std::size_t w : {kGpuMinWindow, std::size_t{513}, std::size_t{8001}}) {
    EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(w), SampleType::f64).engine->name(), "gpu-tuned") << w;
  }
  EXPECT_EQ(chooseAutoEngine(engines, unevenTaps(kGpuMinWindow - 2), SampleType::f64).engine->name(), "cpu-parallel");
  BackendList noGpu = cpuEngines();
  noGpu.push_back(std::make_unique<CpuFftBackend>());
  for (const std::size_t w : {std::size_t{17}, std::size_t{51}, std::size_t{97}, std::size_t{8001}}) {
    EXPECT_EQ(chooseAutoEngine(noGpu, unevenTaps(w), SampleType::f64).engine->name(), "cpu-parallel") << w;
    EXPECT_EQ(chooseAutoEngine(noGpu, makeMeanFilter(w), SampleType::f64).engine->name(), "cpu-parallel") << w;
  }
  EXPECT_EQ(CpuFftBackend().errorBound(unevenTaps(97), SampleType::f64), ErrorBound::NormWise);
  EXPECT_EQ(CpuRunningBackend().errorBound(makeMeanFilter(51), SampleType::f32), ErrorBound::NormWise);
  EXPECT_EQ(CpuParallelBackend().errorBound(unevenTaps(97), SampleType::f32), ErrorBound::Exact);
}

// The case: a Gaussian of sigma 30 (241 taps) over a signal with one spike of 1e100. An
// FFT's outputs far from the spike carry errors of about 1e-16 x 1e100; auto's are exact.
TEST(Job, AutoGivesExactOutputsFarFromAHugeSpike) {
  BackendList engines = cpuEngines();
  engines.push_back(std::make_unique<CpuFftBackend>());
  std::vector<double> x(6000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.01 * static_cast<double>(i));
  x[1000] = 1e100;
  Job job;
  job.spec = makeGaussianFilter(30.0);
  const AppliedJob applied = applyJob(engines, x, job);
  std::vector<double> exact(x.size());
  filterSerial(x, job.spec, exact);
  EXPECT_TRUE(applied.result.output == exact) << applied.result.engine;
  EXPECT_NEAR(applied.result.output[3000], exact[3000], 1e-12);
  ASSERT_LT(std::fabs(exact[3000]), 1.0);
  // Named, cpu-fft runs and says what its bound is: far outputs are then anything but exact.
  job.engines = "cpu-fft";
  const AppliedJob fft = applyJob(engines, x, job);
  EXPECT_TRUE(fft.result.verification.passed());  // within its norm-wise bound
  EXPECT_GT(std::fabs(fft.result.output[3000] - exact[3000]), 1.0);
}

// Sections whose poles fade quickly: auto takes cpu-parallel's block scan, which carries a spike's
// state until it fades below the signal after it, as the recursion does. A spike of 1e100 just before
// its second block: the scan used to drop the carried state once small against the signal's peak
// (1010 samples on it gave -0.34 for -9.2e46); now every output is within 1e-12 of the recursion's,
// relative to the larger of 1 and the largest |output| within 64 samples (the response oscillates: the
// recursion's own rounding is relative to its envelope, not to a value near a zero crossing).
TEST(Job, AutoFollowsTheRecursionAfterAHugeSpike) {
  std::vector<double> x(300000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::sin(0.01 * static_cast<double>(i));
  x[74990] = 1e100;
  Job job;
  job.spec = makeButterworthFilter({4, 0.1, 0, BandType::Lowpass, 0}, false);
  job.verify = false;
  BackendList engines = cpuEngines();
  const AppliedJob applied = applyJob(engines, x, job);
  ASSERT_EQ(applied.result.engine, "cpu-parallel");
  std::vector<double> exact(x.size());
  filterKindReference(std::span<const double>(x), job.spec, std::span<double>(exact));
  std::vector<double> near(x.size() / 64 + 1, 1.0);  // per 64 outputs: max(1, max |exact|)
  for (std::size_t i = 0; i < x.size(); ++i) near[i / 64] = std::max(near[i / 64], std::fabs(exact[i]));
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::size_t c = i / 64;
    const double scale = std::max({near[c], near[c > 0 ? c - 1 : c], near[c + 1 < near.size() ? c + 1 : c]});
    const double error = std::fabs(applied.result.output[i] - exact[i]) / scale;
    if (error > worst) worst = error, at = i;
  }
  EXPECT_LT(worst, 1e-12) << "at " << at << ": " << applied.result.output[at] << " for " << exact[at];
}

// A signal of 1e-280: the carry's floor (1e-290, there to keep an all-zero block out of subnormals)
// must not drop states the stated tolerance counts on.
TEST(Job, TheBlockScanOfATinySignalStaysWithinItsTolerance) {
  std::vector<double> x(300000);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = 1e-280 * std::sin(0.01 * static_cast<double>(i));
  Job job;
  job.spec = makeButterworthFilter({4, 0.1, 0, BandType::Lowpass, 0}, false);
  job.verifyAll = true;
  BackendList engines = cpuEngines();
  const AppliedJob applied = applyJob(engines, x, job);
  EXPECT_EQ(applied.result.engine, "cpu-parallel");
  EXPECT_TRUE(applied.result.verification.passed()) << applied.result.verification.maxAbsDiff << " > "
                                                    << applied.result.verification.tolerance;
}

// The block scan is auto's only where the slowest pole fades within kSosScanDefaultFade samples.
TEST(Job, AutoTakesTheBlockScanOnlyWhereThePolesFadeQuickly) {
  EXPECT_NEAR(sosFadeLength({{1, 0, 0, 1, 0, 0.25}}), 53.0, 1e-9);  // a pole pair of radius 1/2
  EXPECT_EQ(sosFadeLength({{1, 0, 0, 1, 0, 0}}), 0.0);
  EXPECT_TRUE(std::isinf(sosFadeLength({{1, 0, 0, 1, -1, 0}})));  // a pole at 1
  const BackendList engines = cpuEngines();
  const FilterSpec fast = makeButterworthFilter({8, 0.1, 0.3, BandType::Bandpass, 0}, true);
  const EngineChoice scan = chooseAutoEngine(engines, fast, SampleType::f64);
  EXPECT_EQ(scan.engine->name(), "cpu-parallel");
  EXPECT_NE(scan.why.find("fades to 2^-53 within 1147 samples"), std::string::npos) << scan.why;
  const FilterSpec slow = makeButterworthFilter({4, 0.001, 0, BandType::Lowpass, 0}, false);
  const EngineChoice serial = chooseAutoEngine(engines, slow, SampleType::f64);
  EXPECT_EQ(serial.engine->name(), "cpu-serial");
  EXPECT_NE(serial.why.find("too long for the block scan's cuts"), std::string::npos) << serial.why;
}

// A mean filter of 51 taps: auto is bit-identical to cpu-serial (cpu-running differed in the last digit).
TEST(Job, AutoIsBitIdenticalToTheReferenceForWideMeanFilters) {
  const BackendList engines = cpuEngines();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(10000, rng);
  Job job;
  job.spec = makeMeanFilter(51);
  const AppliedJob applied = applyJob(engines, x, job);
  std::vector<double> exact(x.size());
  filterSerial(x, job.spec, exact);
  EXPECT_TRUE(applied.result.output == exact) << applied.result.engine;
  EXPECT_EQ(applied.result.verification.tolerance, 0.0);
}

// An exact engine that fails at run time (a GPU out of memory).
class FailingGpuEngine final : public FilterBackend {
 public:
  std::string_view name() const override { return "gpu-tuned"; }
  std::string_view description() const override { return "test"; }
  bool usesGpu() const override { return true; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return {}; }
  FilterPass filter(std::span<const double>, const FilterSpec&, std::span<double>, const RunOptions&,
                    const Progress&) override {
    throw std::runtime_error("out of GPU memory");
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw std::runtime_error("out of GPU memory");
  }
};

TEST(Job, AutoFallsBackWhenItsChoiceFailsHere) {
  BackendList engines = cpuEngines(false);
  engines.push_back(std::make_unique<FailingGpuEngine>());
  std::mt19937_64 rng(test::freshSeed());
  std::vector<double> in = test::randomSignal(kGpuStageMinSamples, rng);  // long enough for the GPU's row
  in[1234] = NAN;
  Job job;
  job.spec = unevenTaps(kGpuMinWindow);
  job.read.allowNonFinite = true;
  const AppliedJob applied = applyJob(engines, in, job);
  EXPECT_EQ(applied.result.engine, "cpu-parallel");
  ASSERT_EQ(applied.fellBack.size(), 1u);
  EXPECT_NE(applied.fellBack[0].find("out of GPU memory"), std::string::npos);
  EXPECT_TRUE(applied.result.verification.passed());
  EXPECT_GT(applied.result.verification.checked, 0u);
}

// A signal whose whole CPU pass is shorter than a GPU's copies (1,000 samples, 101 taps) runs on
// the CPU: auto does not try the GPU first.
TEST(Job, AutoRunsAShortSignalOnTheCpuWithoutTryingTheGpu) {
  BackendList engines = cpuEngines(false);
  engines.push_back(std::make_unique<FailingGpuEngine>());
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(1000, rng);
  Job job;
  job.spec = unevenTaps(kGpuMinWindow);
  const AppliedJob applied = applyJob(engines, in, job);
  EXPECT_EQ(applied.result.engine, "cpu-parallel");
  EXPECT_TRUE(applied.fellBack.empty()) << applied.fellBack.front();
  EXPECT_NE(applied.why.find("1000 samples x 101 taps"), std::string::npos) << applied.why;
}

TEST(Job, ApplyWritesTheChosenEnginesResult) {
  const BackendList engines = cpuEngines();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(4097, rng);
  Job job;
  job.spec = makeMeanFilter(19);
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
