// The rate-changing stages (resample-poly, upfirdn, decimate) against SciPy 1.10 on awkward sizes
// and channel counts, streamed against in memory bit for bit for every block size, cpu-parallel
// against cpu-serial, the rate and length through a chain into a file, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "scipy_support.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "engine_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::cpuEngines;

std::vector<double> signalOf(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return test::randomSignal(n, rng);
}

PipelineReport runOn(const std::string& chain, const std::vector<std::vector<double>>& channels,
                     const PipelineOptions& options, std::optional<double> rate = std::nullopt) {
  static const BackendList engines = cpuEngines();
  ChannelSource source;
  for (const auto& c : channels) source.channels.emplace_back(c);
  source.sampleRate = rate;
  return runPipeline(parseChain(chain), source, MemorySink{}, engines, options);
}

bool sameBits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

// A file of float64 values as numpy's tofile writes them (empty for none).
std::vector<double> rawDoubles(const std::string& path) {
  const std::string bytes = test::readFile(path);
  std::vector<double> values(bytes.size() / sizeof(double));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

std::string refusal(const std::string& chain, std::size_t n) {
  try {
    runOn(chain, {signalOf(n, 1)}, {});
  } catch (const StageError& e) {
    return e.what();
  }
  return "(not refused)";
}

// Each case: the chain, SciPy's expression of x, and a tolerance relative to the signal's peak
// (FIR: sums in another order; IIR: the design's and recursion's rounding).
struct OracleCase {
  std::string chain;
  std::string scipy;
  double tolerance;
};

const std::vector<OracleCase>& oracleCases() {
  static const std::vector<OracleCase> cases = {
      {"resample-poly 3,2", "s.resample_poly(x, 3, 2)", 1e-13},
      {"resample-poly 2,3", "s.resample_poly(x, 2, 3)", 1e-13},
      {"resample-poly 6,4 window hamming", "s.resample_poly(x, 6, 4, window='hamming')", 1e-13},
      {"resample-poly 1,5 beta 8", "s.resample_poly(x, 1, 5, window=('kaiser', 8.0))", 1e-13},
      {"resample-poly 4,4", "s.resample_poly(x, 4, 4)", 0},
      {"upfirdn TAPS,3,2", "s.upfirdn(h, x, 3, 2)", 1e-13},
      {"upfirdn TAPS", "s.upfirdn(h, x)", 1e-13},
      {"upfirdn TAPS,1,4", "s.upfirdn(h, x, 1, 4)", 1e-13},
      {"decimate 4 ftype fir", "s.decimate(x, 4, ftype='fir')", 1e-13},
      {"decimate 3 ftype fir zero-phase=off", "s.decimate(x, 3, ftype='fir', zero_phase=False)", 1e-13},
      {"decimate 2 ftype fir n 7", "s.decimate(x, 2, n=7, ftype='fir')", 1e-13},
      {"decimate 4", "s.decimate(x, 4)", 1e-9},
      {"decimate 3 zero-phase=off", "s.decimate(x, 3, zero_phase=False)", 1e-9},
      {"decimate 5 n 4", "s.decimate(x, 5, n=4)", 1e-9},
  };
  return cases;
}

TEST(RateChange, EveryStageAgreesWithScipyOnAwkwardSizesAndChannels) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const test::TempDir dir;
  const std::vector<double> taps = {0.5, -1.25, 2.0, 0.75, 0.125, -0.5, 1.0};  // 7: an odd count, not a multiple of up
  writeSignal(dir.file("taps.txt"), taps);
  const std::vector<std::size_t> sizes = {0, 1, 5, 61, 1237, 20011};  // 5 and 61: shorter than most filters
  std::string script = "import numpy as np, scipy.signal as s\nh = np.loadtxt('" + dir.file("taps.txt") + "')\n";
  std::vector<std::vector<double>> signals;
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    signals.push_back(signalOf(sizes[k] * 3, 7 + k));  // three channels' worth, planar
    writeSignal(dir.file("x" + std::to_string(k) + ".npy"), signals.back());
    script += "X = np.load('" + dir.file("x" + std::to_string(k) + ".npy") + "').reshape(3, " + std::to_string(sizes[k]) + ")\n";
    for (std::size_t c = 0; c < oracleCases().size(); ++c) {
      const std::string out = dir.file("y" + std::to_string(k) + "-" + std::to_string(c) + ".f64");
      // A case SciPy refuses (a zero-phase IIR no longer than its pad) is saved as NaN.
      script += "try:\n  np.stack([" + oracleCases()[c].scipy + " for x in X]).ravel().tofile('" + out +
                "')\nexcept ValueError:\n  np.array([np.nan]).tofile('" + out + "')\n";
    }
  }
  test::writeFile(dir.file("oracle.py"), script);
  ASSERT_TRUE(test::runPython(dir.file("oracle.py")));
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const std::size_t n = sizes[k];
    for (std::size_t c = 0; c < oracleCases().size(); ++c) {
      const OracleCase& oracle = oracleCases()[c];
      std::string chain = oracle.chain;
      if (const auto at = chain.find("TAPS"); at != std::string::npos) chain.replace(at, 4, dir.file("taps.txt"));
      const std::vector<double> expected = rawDoubles(dir.file("y" + std::to_string(k) + "-" + std::to_string(c) + ".f64"));
      for (std::size_t channels = 1; channels <= 3; ++channels) {
        SCOPED_TRACE(oracle.chain + ", " + std::to_string(n) + " samples, " + std::to_string(channels) + " channels");
        std::vector<std::vector<double>> x;
        for (std::size_t ch = 0; ch < channels; ++ch) {
          x.emplace_back(signals[k].begin() + static_cast<std::ptrdiff_t>(ch * n),
                         signals[k].begin() + static_cast<std::ptrdiff_t>((ch + 1) * n));
        }
        const Pipeline pipeline = parseChain(chain);
        const auto [up, down] = bindStage(pipeline.stages[0], 1, {})->rateChange();
        if (n >= 1 && n * up < down) {  // less than one sample's worth left: refused (SciPy gives one)
          EXPECT_THROW(runOn(chain, x, {}), StageError);
          continue;
        }
        const bool scipyRefused = expected.size() == 1 && std::isnan(expected[0]);
        if (scipyRefused && n == 0 && chain.find("zero-phase=off") != std::string::npos) {  // SciPy 1.10's sosfilt fails to reshape an empty array (a bug): none out here
          EXPECT_EQ(runOn(chain, x, {}).output.at(0).size(), 0u);
          continue;
        }
        if (scipyRefused) {  // sosfiltfilt's pad longer than the signal
          EXPECT_THROW(runOn(chain, x, {}), StageError);
          continue;
        }
        const PipelineReport report = runOn(chain, x, {});
        ASSERT_TRUE(report.passed());
        ASSERT_EQ(report.output.size(), channels);
        const std::size_t outputs = expected.size() / 3;
        double peak = 1.0;
        for (const double v : signals[k]) peak = std::max(peak, std::fabs(v));
        for (std::size_t ch = 0; ch < channels; ++ch) {
          ASSERT_EQ(report.output[ch].size(), outputs);
          for (std::size_t i = 0; i < outputs; ++i) {
            ASSERT_NEAR(report.output[ch][i], expected[ch * outputs + i], oracle.tolerance * peak) << "output " << i;
          }
        }
      }
    }
  }
}

// A signal shorter than a stage's rate change would leave less than one sample: refused before any
// work, naming the stage (SciPy would give one sample standing for all of it).
TEST(RateChange, AChainEndingBelowOneSampleIsRefusedNamingTheStage) {
  EXPECT_NE(refusal("decimate 4 ftype fir", 3).find("leaves 0.75 of a sample from 3 samples"), std::string::npos);
  const std::string chained = refusal("median 3; decimate 3 ftype fir; resample-poly 1,8", 20);
  EXPECT_NE(chained.find("stage 3 (resample-poly)"), std::string::npos) << chained;
  EXPECT_EQ(refusal("decimate 4 ftype fir", 4), "(not refused)");
}

TEST(RateChange, BadParametersAreRefusedNamingTheParameterAndItsRange) {
  const auto parsing = [](const std::string& chain) {
    try {
      parseChain(chain);
    } catch (const StageError& e) {
      return std::string(e.what());
    }
    return std::string("(not refused)");
  };
  EXPECT_NE(parsing("resample-poly 0,2").find("UP must be a whole number from 1 to 65536"), std::string::npos);
  EXPECT_NE(parsing("resample-poly 3,0").find("DOWN must be a whole number from 1"), std::string::npos);
  EXPECT_NE(parsing("resample-poly 3").find("takes UP,DOWN"), std::string::npos);
  EXPECT_NE(parsing("decimate 0").find("Q must be a whole number from 1 to 65536"), std::string::npos);
  EXPECT_NE(parsing("decimate 4 ftype cheby").find("ftype must be one of iir, fir"), std::string::npos);
  EXPECT_NE(parsing("upfirdn taps.txt,0").find("UP must be a whole number from 1"), std::string::npos);
  EXPECT_NE(refusal("decimate 4 n 40", 100).find("n must be a whole number from 0 to 32 for ftype iir"), std::string::npos);
  EXPECT_NE(refusal("decimate 1 ftype fir", 100).find("Q must be at least 2 for ftype fir"), std::string::npos);
  EXPECT_NE(parsing("resample-poly 3,2 window boxcar").find("window must be one of kaiser, hamming"), std::string::npos);
  EXPECT_NE(parsing("resample-poly 3,2 beta -1").find("beta must be a finite number from 0 to 1000"), std::string::npos);
  EXPECT_NE(refusal("decimate 4", 27).find("needs more than 27 samples"), std::string::npos);  // sosfiltfilt's pad, as SciPy
}

// Streamed block by block with each stage's history carried: the in-memory bits, for every block
// size (1, a stage's history, blocks that divide nothing), float64 and float32, one and two channels.
TEST(RateChange, StreamedIsTheInMemoryBitsForEveryBlockSize) {
  const test::TempDir dir;
  writeSignal(dir.file("taps.txt"), std::vector<double>{0.25, 1.0, -0.5, 0.125, 2.0});
  for (const std::string& chain : std::vector<std::string>{"resample-poly 3,2", "resample-poly 2,7", "decimate 4 ftype fir", "decimate 3 zero-phase=off", "decimate 4",
        "upfirdn " + dir.file("taps.txt") + ",5,3", "decimate 2 ftype fir; median 5; resample-poly 5,3",
        "mean 3; resample-poly 3,1; decimate 2 ftype fir zero-phase=off"}) {
    for (const std::size_t n : {std::size_t{61}, std::size_t{4099}}) {
      std::vector<std::vector<double>> x = {signalOf(n, 3), signalOf(n, 4)};
      for (const SampleType type : {SampleType::f64, SampleType::f32}) {
        PipelineOptions memoryOptions;
        memoryOptions.streaming = Streaming::never;
        memoryOptions.sampleType = type;
        const PipelineReport memory = runOn(chain, x, memoryOptions, 1000.0);
        for (const std::size_t block : {std::size_t{1}, std::size_t{21}, std::size_t{61}, std::size_t{1000}}) {
          if (n > 1000 && block == 1) continue;  // covered by the shorter signal
          SCOPED_TRACE(chain + ", " + std::to_string(n) + " samples, blocks of " + std::to_string(block) +
                       (type == SampleType::f32 ? ", float32" : ""));
          PipelineOptions options;
          options.streaming = Streaming::always;
          options.sampleType = type;
          options.blockSamples = block;
          for (std::size_t channels = 1; channels <= 2; ++channels) {
            const PipelineReport streamed =
                runOn(chain, std::vector<std::vector<double>>(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(channels)), options, 1000.0);
            ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
            ASSERT_TRUE(streamed.passed());
            EXPECT_EQ(streamed.samples, memory.samples);
            EXPECT_EQ(streamed.sampleRate, memory.sampleRate);
            for (std::size_t c = 0; c < channels; ++c) EXPECT_TRUE(sameBits(memory.output.at(c), streamed.output.at(c)));
          }
        }
      }
    }
  }
}

// Decimate's IIR under auto takes cpu-parallel's block scan in memory and streamed: the scan's
// segments are fixed in sample positions, so the streamed result is the in-memory bits whatever the
// blocks (a signal of several segments, blocks that divide nothing, a stage before it, float32), and
// within the scan's stated bound (sosKindTolerance, the in-memory check's) of cpu-serial's recursion.
TEST(RateChange, DecimateTakesTheBlockScanStreamedAndInMemoryWithTheSameBits) {
  const std::size_t n = (std::size_t{1} << 20) + 3 * 65536 + 1237;  // past a streamed scan's block of 16 segments
  std::vector<double> x = signalOf(n, 8);
  x[65536 - 3] = 1e6;  // a spike just before a segment's cut: its response carried across it
  for (const std::string chain : {"decimate 4", "decimate 3 zero-phase=off", "mean 3; decimate 5"}) {
    for (const SampleType type : {SampleType::f64, SampleType::f32}) {
      if (type == SampleType::f32 && chain != "decimate 4") continue;  // float32 rounds the same outputs
      SCOPED_TRACE(chain + (type == SampleType::f32 ? ", float32" : ""));
      PipelineOptions memoryOptions;
      memoryOptions.streaming = Streaming::never;
      memoryOptions.sampleType = type;
      const PipelineReport memory = runOn(chain, {x}, memoryOptions);
      ASSERT_TRUE(memory.passed());
      const StageReport& scanned = memory.channels[0].stages.back();
      EXPECT_EQ(scanned.engine, "cpu-parallel");
      memoryOptions.engines.assign(memory.channels[0].stages.size(), "cpu-serial");
      const PipelineReport serial = runOn(chain, {x}, memoryOptions);
      ASSERT_TRUE(scanned.verified && scanned.verification.checked > 0 && scanned.verification.tolerance > 0);
      double worst = 0;
      for (std::size_t j = 0; j < serial.output.at(0).size(); ++j) {
        worst = std::max(worst, std::abs(serial.output.at(0)[j] - memory.output.at(0)[j]));
      }
      EXPECT_LE(worst, scanned.verification.tolerance + (type == SampleType::f32 ? 1e6 * 0x1p-23 : 0.0));
      for (const std::size_t block : {std::size_t{1000}, std::size_t{300001}}) {
        SCOPED_TRACE("blocks of " + std::to_string(block));
        PipelineOptions options;
        options.streaming = Streaming::always;
        options.sampleType = type;
        options.blockSamples = block;
        const PipelineReport streamed = runOn(chain, {x}, options);
        ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
        ASSERT_TRUE(streamed.passed());
        EXPECT_EQ(streamed.channels[0].stages.back().engine, "cpu-parallel");
        EXPECT_TRUE(sameBits(memory.output.at(0), streamed.output.at(0)));
      }
    }
  }
}

TEST(RateChange, ParallelIsTheSerialBits) {
  const std::vector<std::vector<double>> x = {signalOf(300007, 5)};
  for (const char* chain : {"resample-poly 3,2", "decimate 4 ftype fir", "resample-poly 1,3 window hamming"}) {
    SCOPED_TRACE(chain);
    PipelineOptions options;
    options.streaming = Streaming::never;
    options.engines = {"cpu-serial"};
    const PipelineReport serial = runOn(chain, x, options);
    options.engines = {"cpu-parallel"};
    const PipelineReport parallel = runOn(chain, x, options);
    ASSERT_TRUE(serial.passed() && parallel.passed());
    EXPECT_EQ(parallel.channels[0].stages[0].engine, "cpu-parallel");
    EXPECT_TRUE(parallel.channels[0].stages[0].verified);
    EXPECT_TRUE(sameBits(serial.output.at(0), parallel.output.at(0)));
  }
  // The IIR decimation runs its sections on the filter engines: cpu-parallel's scan within its bound.
  PipelineOptions options;
  options.engines = {"cpu-parallel"};
  const PipelineReport iir = runOn("decimate 4", x, options);
  EXPECT_TRUE(iir.passed());
  EXPECT_EQ(iir.channels[0].stages[0].engine, "cpu-parallel");
}

// An engine of the list that runs rate changes (gpu-tuned on a GPU) is one of the stage's engines:
// named, it runs the stage, verified bit for bit; one that cannot says why.
class RateOnlyEngine final : public FilterBackend {
 public:
  explicit RateOnlyEngine(std::string why) : why_(std::move(why)) {}
  std::string_view name() const override { return "rate-only"; }
  std::string_view description() const override { return "rate changes by Polyphase::run, for the test"; }
  std::string whyNot(const FilterSpec&, SampleType) const override { return "rate changes only"; }
  FilterPass filter(std::span<const double>, const FilterSpec&, std::span<double>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("rate changes only");
  }
  FilterPass filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                    const Progress&) override {
    throw EngineUnavailable("rate changes only");
  }
  std::string whyNotPolyphase() const override { return why_; }
  FilterPass polyphase(const Polyphase& fir, std::span<const double> in, std::span<double> out,
                       const Progress& progress) override {
    ++runs;
    fir.run(in, out, false, progress);
    return {};
  }
  int runs = 0;

 private:
  std::string why_;
};

TEST(RateChange, AnEngineOfTheListThatRunsRateChangesRunsTheStage) {
  const std::vector<double> x = signalOf(100003, 7);
  for (const char* chain : {"resample-poly 3,2", "decimate 4 ftype fir", "resample-poly 1,5 beta 8"}) {
    SCOPED_TRACE(chain);
    BackendList engines = cpuEngines();
    engines.push_back(std::make_unique<RateOnlyEngine>(""));
    auto* rateOnly = static_cast<RateOnlyEngine*>(engines.back().get());
    const auto stage = bindStage(parseChain(chain).stages.at(0), 1, {x.size(), std::nullopt});
    const std::vector<std::string> names = stage->engineNames(engines);
    EXPECT_NE(std::find(names.begin(), names.end(), "rate-only"), names.end());
    StageRunOptions options;
    options.engine = "rate-only";
    const AppliedJob applied = stage->apply(engines, x, options);
    EXPECT_EQ(rateOnly->runs, 1);
    EXPECT_EQ(applied.result.engine, "rate-only");
    EXPECT_TRUE(applied.result.verification.passed());
    options.engine = "cpu-serial";
    EXPECT_TRUE(sameBits(applied.result.output, stage->apply(engines, x, options).result.output));
  }
  BackendList engines = cpuEngines();
  engines.push_back(std::make_unique<RateOnlyEngine>("no usable CUDA GPU was found"));
  const auto stage = bindStage(parseChain("resample-poly 3,2").stages.at(0), 1, {x.size(), std::nullopt});
  const std::vector<std::string> names = stage->engineNames(engines);
  EXPECT_EQ(std::find(names.begin(), names.end(), "rate-only"), names.end());
  StageRunOptions options;
  options.engine = "rate-only";
  try {
    stage->apply(engines, x, options);
    ADD_FAILURE() << "not refused";
  } catch (const StageError& e) {
    EXPECT_NE(std::string(e.what()).find("no usable CUDA GPU was found"), std::string::npos) << e.what();
  }
}

// The output's length and rate follow the chain into the written file, in memory and streamed.
TEST(RateChange, TheWrittenFileHasTheChainsRateAndLength) {
  const test::TempDir dir;
  std::mt19937_64 rng(9);
  test::writeRandomPcm16Wav(dir.file("in.wav"), 2, 8000, rng);  // 8000 Hz? see below
  const Channels in = readChannels(dir.file("in.wav"));
  ASSERT_TRUE(in.sampleRate);
  static const BackendList engines = cpuEngines();
  for (const Streaming streaming : {Streaming::never, Streaming::always}) {
    PipelineOptions options;
    options.streaming = streaming;
    options.blockSamples = 333;
    WriteOptions write;
    write.format = FileFormat::wav;
    const std::string out = dir.file(streaming == Streaming::never ? "memory.wav" : "streamed.wav");
    const PipelineReport report = runPipeline(parseChain("decimate 4 ftype fir; resample-poly 3,2"), FileSource{dir.file("in.wav"), {}},
                                              FileSink{out, write}, engines, options);
    ASSERT_TRUE(report.written);
    EXPECT_EQ(report.plan.stream, streaming == Streaming::always) << report.plan.why;
    const Channels result = readChannels(out);
    ASSERT_EQ(result.channels.size(), 2u);
    EXPECT_EQ(result.channels[0].size(), 3000u);  // ceil(ceil(8000 / 4) 3 / 2)
    EXPECT_EQ(report.samples, 3000u);
    ASSERT_TRUE(result.sampleRate);
    EXPECT_DOUBLE_EQ(*result.sampleRate, *in.sampleRate * 3 / 8);
    EXPECT_DOUBLE_EQ(*report.sampleRate, *in.sampleRate * 3 / 8);
  }
}

}  // namespace
}  // namespace siglab
