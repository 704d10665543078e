// The filter kinds wired through the engines and the pipeline: which engine runs which kind (and
// says why not), every engine against cpu-serial on awkward sizes and every mode, --verify per
// kind (catching a wrong output), the auto choice, reports, responses and SciPy as the oracle.
#include "shared_helpers.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/sos_verify.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <nlohmann/json.hpp>

#include "siglab/comparison.hpp"
#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/job.hpp"
#include "siglab/report.hpp"
#include "siglab/sos_filter.hpp"
#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kModes;

BackendList coreEngines() {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  engines.push_back(std::make_unique<CpuFftBackend>());
  return engines;
}

FilterSpec bandpass(bool zeroPhase) { return makeButterworthFilter({4, 0.1, 0.3, BandType::Bandpass}, zeroPhase); }

TEST(FilterKinds, EachEngineSaysWhetherItRunsEachKind) {
  const BackendList engines = coreEngines();
  const FilterSpec median = makeMedianFilter(5, BoundaryMode::Reflect);
  const FilterSpec savgol = makeSavgolFilter(7, 2, 0, true, BoundaryMode::Mirror);
  const FilterSpec sos = bandpass(true);
  for (const auto& e : engines) {
    const bool reference = e->name() == "cpu-serial" || e->name() == "cpu-parallel";
    for (const FilterSpec* spec : {&median, &sos}) {
      const std::string why = e->whyNot(*spec, SampleType::f64);
      EXPECT_EQ(why.empty(), reference) << e->name() << " on a " << toString(spec->kind) << ": " << why;
      if (!reference) EXPECT_NE(why.find(toString(spec->kind)), std::string::npos) << why;
    }
    // Savitzky-Golay's interior is a correlation: every correlation engine runs it, but its taps are not uniform.
    EXPECT_EQ(e->whyNot(savgol, SampleType::f64).empty(), e->name() != "cpu-running") << e->name();
  }
  EXPECT_THROW(makeMedianFilter(4, BoundaryMode::Zero), std::invalid_argument);
  EXPECT_THROW(makeSavgolFilter(5, 5, 0, true, BoundaryMode::Zero), std::invalid_argument);
  EXPECT_THROW(makeButterworthFilter({0, 0.2}, false), std::invalid_argument);
  EXPECT_THROW(makeButterworthFilter({4, 0.3, 0.1, BandType::Bandpass}, false), std::invalid_argument);
}

// Every engine that runs the kind, on fresh random data of awkward sizes, in every mode, through
// runComparison (outputs poisoned before each run): median and Savitzky-Golay bit-identical to
// cpu-serial, sections within the block scan's stated tolerance.
TEST(FilterKinds, EveryEngineAgreesWithTheReferenceOnAwkwardSizesAndEveryMode) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const BackendList engines = coreEngines();
  const CompareOptions options{{}, {0, 1}};
  std::vector<FilterSpec> specs;
  for (const BoundaryMode mode : kModes) {
    specs.push_back(makeMedianFilter(101, mode));
    specs.push_back(makeMedianFilter(3, mode));
    specs.push_back(makeSavgolFilter(9, 3, 1, false, mode));
  }
  specs.push_back(makeSavgolFilter(11, 4, 0, true, BoundaryMode::Mirror));
  specs.push_back(bandpass(true));
  specs.push_back(bandpass(false));
  specs.push_back(makeButterworthFilter({8, 0.2, 0, BandType::Highpass}, true));
  for (const FilterSpec& spec : specs) {
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2}, std::size_t{50}, std::size_t{1000},
                                std::size_t{140001}}) {
      const bool tooShort = (spec.kind == FilterKind::SavitzkyGolay && spec.savgol.interp && n < spec.window()) ||
                            (spec.kind == FilterKind::Sos && spec.sos.zeroPhase && n <= sosfiltfiltPadLength(spec.sos.sections));
      if (tooShort) {
        EXPECT_THROW(checkSignalLength(spec, n, "--opt"), std::invalid_argument);
        continue;
      }
      const std::vector<double> x = test::randomSignal(n, rng);
      const Comparison c = runComparison(engines, std::span<const double>(x), spec, options);
      for (const BackendResult& r : c.results) {
        SCOPED_TRACE(r.name + " on " + describeFilter(spec) + ", n = " + std::to_string(n));
        if (r.name == "cpu-running" || (r.name == "cpu-fft" && !spec.isCorrelation())) {
          EXPECT_EQ(r.run.status, RunStatus::Unavailable);
          continue;
        }
        ASSERT_EQ(r.run.status, RunStatus::Ok) << r.run.message;
        EXPECT_TRUE(r.agrees) << "max |diff| " << r.agreement.maxAbsDiff << ", tolerance " << r.tolerance;
        if (r.name == "cpu-parallel") {
          if (spec.kind != FilterKind::Sos) EXPECT_EQ(r.tolerance, 0.0);
          EXPECT_TRUE(std::isfinite(r.tolerance));
        }
      }
    }
  }
}

TEST(FilterKinds, Float32RunsAgreeWithTheFloat32Reference) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> wide = test::randomSignal(70001, rng);
  const std::vector<float> x(wide.begin(), wide.end());
  const BackendList engines = coreEngines();
  for (const FilterSpec& spec : {makeMedianFilter(31, BoundaryMode::Wrap), makeSavgolFilter(15, 5, 2, true, BoundaryMode::Mirror),
                                 bandpass(true)}) {
    const Comparison c = runComparison(engines, std::span<const float>(x), spec, CompareOptions{{}, {0, 1}});
    const BackendResult* parallel = c.find("cpu-parallel");
    ASSERT_NE(parallel, nullptr);
    ASSERT_EQ(parallel->run.status, RunStatus::Ok) << parallel->run.message;
    EXPECT_TRUE(parallel->agrees) << describeFilter(spec) << ": " << parallel->agreement.maxAbsDiff;
  }
}

// An engine that gets one output wrong: the first (past Savitzky-Golay's interp edges, which the
// pipeline computes again), the first where it cut the work, or the last. --verify must catch it.
enum class Wrong { First, FirstCut, Last };

class OneWrongOutput final : public FilterBackend {
 public:
  explicit OneWrongOutput(Wrong wrong) : wrong_(wrong) {}
  std::string_view name() const override { return "one-wrong"; }
  std::string_view description() const override { return "test"; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return {}; }
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override {
    return sosKindTolerance(spec, maxAbsInput, false);
  }
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const RunOptions& o,
                    const Progress& p) override {
    FilterPass pass = CpuParallelBackend().filter(in, spec, out, o, p);
    const std::size_t edge = spec.kind == FilterKind::SavitzkyGolay && spec.savgol.interp ? spec.radius() : 0;
    corrupted = wrong_ == Wrong::First ? edge
                : wrong_ == Wrong::Last ? out.size() - 1 - edge
                : pass.splits.at.empty() ? out.size() / 2 : pass.splits.at.front();
    out[corrupted] += 1e-3 * (1.0 + std::fabs(out[corrupted]));
    return pass;
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("float64 only");
  }
  std::size_t corrupted = 0;

 private:
  Wrong wrong_;
};

TEST(FilterKinds, VerifyChecksEachKindAgainstItsReferenceAndCatchesAWrongOutput) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(150001, rng);
  for (const FilterSpec& spec : {makeMedianFilter(51, BoundaryMode::Mirror), makeSavgolFilter(21, 3, 0, true, BoundaryMode::Mirror),
                                 bandpass(true), bandpass(false)}) {
    SCOPED_TRACE(describeFilter(spec));
    BackendList engines = coreEngines();
    Job job;
    job.spec = spec;
    job.engines = "cpu-parallel";
    const AppliedJob good = applyJob(engines, x, job);
    EXPECT_TRUE(good.result.verification.passed()) << good.result.verification.maxAbsDiff;
    // Sections are checked in stretches until a share of the filter's time is spent (sos_verify.hpp):
    // at least both ends however slow the machine (a sanitizer build, a loaded CI).
    const std::size_t atLeast = spec.kind == FilterKind::Sos ? 2 * kSosStretchOutputs : kDefaultVerifyRandom / 2 + 1;
    EXPECT_GE(good.result.verification.checked, atLeast);
    for (const Wrong wrong : {Wrong::First, Wrong::FirstCut, Wrong::Last}) {
      auto engine = std::make_unique<OneWrongOutput>(wrong);
      OneWrongOutput* corrupting = engine.get();
      engines.push_back(std::move(engine));
      job.engines = "one-wrong";
      const AppliedJob bad = applyJob(engines, x, job);
      EXPECT_FALSE(bad.result.verification.passed()) << "output " << corrupting->corrupted;
      EXPECT_EQ(bad.result.verification.firstMismatch, corrupting->corrupted);
      engines.pop_back();
    }
  }
}

TEST(FilterKinds, AutoPicksTheFastestExactCpuEngineForEachKindWithoutAGpu) {
  const BackendList engines = coreEngines();
  const EngineChoice median = chooseAutoEngine(engines, makeMedianFilter(101, BoundaryMode::Reflect), SampleType::f64);
  EXPECT_EQ(median.engine->name(), "cpu-parallel");
  // Sections whose poles fade within kSosScanDefaultFade samples: the block scan; slower ones the
  // serial recursion, the block scan then only when named.
  for (const FilterSpec& spec : {bandpass(true), bandpass(false)}) {
    const EngineChoice choice = chooseAutoEngine(engines, spec, SampleType::f64);
    EXPECT_EQ(choice.engine->name(), "cpu-parallel") << describeFilter(spec);
    EXPECT_NE(choice.why.find("fades to 2^-53 within"), std::string::npos) << choice.why;
  }
  const FilterSpec narrow = makeButterworthFilter({4, 0.001, 0, BandType::Lowpass}, true);
  const EngineChoice slow = chooseAutoEngine(engines, narrow, SampleType::f64);
  EXPECT_EQ(slow.engine->name(), "cpu-serial");
  EXPECT_NE(slow.why.find("--engine cpu-parallel"), std::string::npos) << slow.why;
}

TEST(FilterKinds, ReportsRecordTheKindAndItsParameters) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(500, rng);
  const BackendList engines = coreEngines();
  const CompareOptions options{{}, {0, 1}};
  const FilterSpec sos = makeButterworthFilter({6, 50.0, 120.0, BandType::Bandstop, 1000.0}, true);
  const nlohmann::json butter = comparisonToJson(runComparison(engines, std::span<const double>(x), sos, options), "x");
  EXPECT_EQ(butter["kind"], "butterworth");
  EXPECT_EQ(butter["parameters"]["order"], 6);
  EXPECT_EQ(butter["parameters"]["band"], "bandstop");
  EXPECT_EQ(butter["parameters"]["cutoffs"], nlohmann::json({50.0, 120.0}));
  EXPECT_EQ(butter["parameters"]["cutoff_unit"], "Hz");
  EXPECT_EQ(butter["parameters"]["zero_phase"], true);
  EXPECT_EQ(butter["parameters"]["sections"], 6);
  const FilterSpec savgol = makeSavgolFilter(11, 3, 1, true, BoundaryMode::Mirror);
  const nlohmann::json sg = comparisonToJson(runComparison(engines, std::span<const double>(x), savgol, options), "x");
  EXPECT_EQ(sg["kind"], "savgol");
  EXPECT_EQ(sg["parameters"], nlohmann::json({{"window", 11}, {"order", 3}, {"deriv", 1}, {"mode", "interp"}}));
  const std::string csv =
      comparisonToCsv(runComparison(engines, std::span<const double>(x), makeMedianFilter(9, BoundaryMode::Wrap), options), "x");
  EXPECT_NE(csv.find(",median,\"median W=9, wrap\"\n"), std::string::npos) << csv;
}

// Closed forms: a polynomial of degree <= ORDER comes back unchanged (edges included, through
// every engine); a median of a known permutation; -3.01 dB at a Butterworth cutoff (-6.02 dB
// zero phase); a symmetric pulse stays symmetric through the zero-phase pipeline.
TEST(FilterKinds, ClosedFormsThroughThePipeline) {
  const BackendList engines = coreEngines();
  std::vector<double> cubic(301);
  for (std::size_t i = 0; i < cubic.size(); ++i) {
    const double t = static_cast<double>(i) / 100.0;
    cubic[i] = 1.0 - 2.0 * t + 0.5 * t * t * t;
  }
  const Comparison sg =
      runComparison(engines, std::span<const double>(cubic), makeSavgolFilter(15, 3, 0, true, BoundaryMode::Mirror), {{}, {0, 1}});
  for (std::size_t i = 0; i < cubic.size(); ++i) EXPECT_NEAR(sg.reference[i], cubic[i], 1e-12) << i;

  const std::vector<double> permutation = {4, 9, 1, 7, 3, 8, 2, 6, 5};
  const Comparison m = runComparison(engines, std::span<const double>(permutation), makeMedianFilter(9, BoundaryMode::Wrap), {{}, {0, 1}});
  for (double v : m.reference) EXPECT_EQ(v, 5.0);  // every wrapped window holds the whole permutation

  const FilterSpec low = makeButterworthFilter({5, 100.0, 0, BandType::Lowpass, 1000.0}, false);
  const FrequencyResponse at = sosResponse(low.sos.sections, 10, false, 1000.0);  // 0, 50, 100, ... Hz
  EXPECT_NEAR(at.magnitudeDb()[2], -3.0103, 1e-3);
  EXPECT_NEAR(sosResponse(low.sos.sections, 10, true, 1000.0).magnitudeDb()[2], -6.0206, 1e-3);
  EXPECT_NEAR(at.magnitudeDb()[0], 0.0, 1e-9);

  std::vector<double> pulse(2001, 0.0);
  for (int k = -20; k <= 20; ++k) pulse[1000 + k] = std::exp(-k * k / 50.0);
  const Comparison zp = runComparison(engines, std::span<const double>(pulse), bandpass(true), {{}, {0, 1}});
  for (std::size_t i = 0; i < pulse.size(); ++i) EXPECT_NEAR(zp.reference[i], zp.reference[pulse.size() - 1 - i], 1e-12) << i;
}

// The pipeline's result (cpu-parallel, edges by finishEdges) against SciPy's functions, one
// SciPy run for every case.
TEST(FilterKinds, PipelineMatchesScipy) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(1237, rng);
  BackendList engines = coreEngines();
  struct Case {
    FilterSpec spec;
    std::string scipy;
    double tolerance;
  };
  const std::vector<Case> cases = {
      {makeMedianFilter(7, BoundaryMode::Reflect), "ndimage.median_filter(x[0], 7, mode='reflect')", 0.0},
      {makeMedianFilter(5, BoundaryMode::Zero), "signal.medfilt(x[0], 5)", 0.0},
      {makeSavgolFilter(11, 3, 1, true, BoundaryMode::Mirror), "signal.savgol_filter(x[0], 11, 3, deriv=1)", 1e-11},
      {makeSavgolFilter(9, 2, 0, false, BoundaryMode::Nearest), "signal.savgol_filter(x[0], 9, 2, mode='nearest')", 1e-11},
      {makeButterworthFilter({4, 0.1, 0.3, BandType::Bandpass}, true),
       "signal.sosfiltfilt(signal.butter(4, [0.1, 0.3], 'bandpass', output='sos'), x[0])", 1e-9},
      {makeButterworthFilter({3, 0.25, 0, BandType::Highpass}, false),
       "signal.sosfilt(signal.butter(3, 0.25, 'highpass', output='sos'), x[0])", 1e-9},
  };
  std::string all = "np.concatenate([";
  for (const Case& c : cases) all += c.scipy + ", ";
  const std::vector<double> expected = test::scipyEval(all + "])", {x});
  ASSERT_EQ(expected.size(), cases.size() * x.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    Job job;
    job.spec = cases[k].spec;
    job.engines = "cpu-parallel";
    const AppliedJob applied = applyJob(engines, x, job);
    ASSERT_TRUE(applied.result.verification.passed()) << cases[k].scipy;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double want = expected[k * x.size() + i];
      ASSERT_NEAR(applied.result.output[i], want, cases[k].tolerance * (1.0 + std::fabs(want) * 100)) << cases[k].scipy << " at " << i;
    }
  }
  // Response: scipy.signal.sosfreqz of the same design, and freqz of savgol_coeffs.
  const FilterSpec design = makeButterworthFilter({6, 0.2, 0.45, BandType::Bandstop}, false);
  const std::vector<double> h = test::scipyEval(
      "np.abs(signal.sosfreqz(signal.butter(6, [0.2, 0.45], 'bandstop', output='sos'), worN=64)[1])", {});
  const FrequencyResponse mine = sosResponse(design.sos.sections, 64, false);
  ASSERT_EQ(h.size(), 64u);
  for (std::size_t k = 0; k < 64; ++k) EXPECT_NEAR(std::abs(mine.response[k]), h[k], 1e-9) << k;
}

}  // namespace
}  // namespace siglab
