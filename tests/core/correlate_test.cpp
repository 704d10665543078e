// correlate (issue 27 item 6): scipy.signal.correlate(x, template, mode) on awkward sizes (a
// template longer than the signal, of one value, even and odd), one and two channels, every
// mode; streamed with the template's length as history, the in-memory bits for every block
// size; cpu-parallel the cpu-serial bits; the refusals naming what was wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <random>
#include <tuple>

#include "engine_test_support.hpp"
#include "scipy_support.hpp"
#include "siglab/auto_engine_rule.hpp"
#include "siglab/fft_correlate.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::vector<double> signalOf(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  return test::randomSignal(n, rng);
}

PipelineReport runOn(const std::string& chain, const std::vector<std::vector<double>>& channels,
                     const PipelineOptions& options = {}) {
  static const BackendList engines = test::cpuEngines();
  ChannelSource source;
  for (const auto& c : channels) source.channels.emplace_back(c);
  return runPipeline(parseChain(chain), source, MemorySink{}, engines, options);
}

bool sameBits(std::span<const double> a, std::span<const double> b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

std::vector<double> rawDoubles(const std::string& path) {
  const std::string bytes = test::readFile(path);
  std::vector<double> values(bytes.size() / sizeof(double));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

TEST(Correlate, AgreesWithScipyInEveryModeOnAwkwardSizesAndChannels) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const test::TempDir dir;
  const std::vector<std::size_t> templates = {1, 4, 7};
  const std::vector<std::size_t> sizes = {1, 3, 5, 61, 1237};  // 1, 3, 5: shorter than a template
  std::string script = "import numpy as np, scipy.signal as s\n";
  for (const std::size_t m : templates) {
    writeSignal(dir.file("t" + std::to_string(m) + ".txt"), signalOf(m, 100 + m));
  }
  for (const std::size_t n : sizes) {
    writeSignal(dir.file("x" + std::to_string(n) + ".npy"), signalOf(2 * n, n));
    script += "X = np.load('" + dir.file("x" + std::to_string(n) + ".npy") + "').reshape(2, -1)\n";
    for (const std::size_t m : templates) {
      script += "t = np.atleast_1d(np.loadtxt('" + dir.file("t" + std::to_string(m) + ".txt") + "'))\n";
      for (const char* mode : {"full", "same", "valid"}) {
        const std::string out = dir.file("y" + std::to_string(n) + "-" + std::to_string(m) + mode + ".f64");
        script += "np.stack([s.correlate(x, t, '" + std::string(mode) + "') for x in X]).ravel().tofile('" + out + "')\n";
      }
    }
  }
  test::writeFile(dir.file("oracle.py"), script);
  ASSERT_TRUE(test::runPython(dir.file("oracle.py")));
  for (const std::size_t n : sizes) {
    const std::vector<double> both = signalOf(2 * n, n);
    double peak = 1.0;
    for (const double v : both) peak = std::max(peak, std::fabs(v));
    for (const std::size_t m : templates) {
      for (const char* mode : {"full", "same", "valid"}) {
        const std::vector<double> expected = rawDoubles(dir.file("y" + std::to_string(n) + "-" + std::to_string(m) + mode + ".f64"));
        const std::size_t outputs = expected.size() / 2;
        for (const std::size_t channels : {1, 2}) {
          SCOPED_TRACE(std::to_string(n) + " samples, template " + std::to_string(m) + ", mode " + mode + ", " +
                       std::to_string(channels) + " channels");
          std::vector<std::vector<double>> x;
          for (std::size_t c = 0; c < channels; ++c) x.emplace_back(both.begin() + static_cast<std::ptrdiff_t>(c * n), both.begin() + static_cast<std::ptrdiff_t>((c + 1) * n));
          const PipelineReport report =
              runOn("correlate " + dir.file("t" + std::to_string(m) + ".txt") + ",mode=" + mode, x);
          ASSERT_TRUE(report.passed());
          for (std::size_t c = 0; c < channels; ++c) {
            ASSERT_EQ(report.output.at(c).size(), outputs);
            for (std::size_t i = 0; i < outputs; ++i) {
              ASSERT_NEAR(report.output[c][i], expected[c * outputs + i], 1e-13 * peak * peak * static_cast<double>(m)) << i;
            }
          }
        }
      }
    }
  }
}

// SciPy refuses an empty signal (np.correlate: a cannot be empty); here it is an empty result.
TEST(Correlate, AnEmptySignalGivesAnEmptyResultInEveryMode) {
  const test::TempDir dir;
  writeSignal(dir.file("t.txt"), std::vector<double>{1, 2, 3});
  for (const char* mode : {"full", "same", "valid"}) {
    const PipelineReport report = runOn("correlate " + dir.file("t.txt") + ",mode=" + mode, {{}});
    EXPECT_EQ(report.output.at(0).size(), 0u) << mode;
  }
}

TEST(Correlate, StreamedIsTheInMemoryBitsForEveryBlockSize) {
  const test::TempDir dir;
  writeSignal(dir.file("t.txt"), signalOf(33, 1));
  const std::string t = dir.file("t.txt");
  const std::vector<std::vector<double>> x = {signalOf(2003, 3), signalOf(2003, 4)};
  for (const std::string& chain : std::vector<std::string>{"correlate " + t, "correlate " + t + ",mode=same,method=direct",
                                  "correlate " + t + ",mode=valid", "mean 3; correlate " + t + ",mode=same"}) {
    PipelineOptions memoryOptions;
    memoryOptions.streaming = Streaming::never;
    const PipelineReport memory = runOn(chain, x, memoryOptions);
    for (const std::size_t block : {1, 32, 33, 1000}) {
      SCOPED_TRACE(chain + ", blocks of " + std::to_string(block));
      PipelineOptions options;
      options.streaming = Streaming::always;
      options.blockSamples = block;
      const PipelineReport streamed = runOn(chain, x, options);
      ASSERT_TRUE(streamed.plan.stream) << streamed.plan.why;
      for (std::size_t c = 0; c < 2; ++c) EXPECT_TRUE(sameBits(memory.output.at(c), streamed.output.at(c)));
    }
  }
}

// method=fft (and auto where SciPy's rule takes the FFT): in memory by FFTW, within its stated
// bound of SciPy's FFT and of the direct sums (and not their bits); streamed, the direct sums.
TEST(Correlate, FftMethodIsScipysWithinItsBoundInMemoryAndStreamsTheDirectSums) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const test::TempDir dir;
  const std::vector<double> t = signalOf(701, 7);
  writeSignal(dir.file("t.txt"), t);
  const std::vector<std::vector<double>> x = {signalOf(5003, 8)};
  writeSignal(dir.file("x.npy"), x[0]);
  // SciPy's values, and its method='auto' choice on a table of sizes (choose_conv_method).
  const std::vector<std::tuple<std::uint64_t, std::uint64_t, std::string>> sizes = {
      {5003, 701, "full"}, {20000, 2000, "full"}, {20000, 2000, "valid"}, {20000, 2000, "same"}, {10000000, 64, "full"},
      {10000000, 1000, "same"}, {300, 5000, "same"}, {100000, 300, "valid"}};
  std::string script = "import numpy as np, scipy.signal as s\nx = np.load('" + dir.file("x.npy") +
                       "')\nt = np.loadtxt('" + dir.file("t.txt") + "')\n";
  for (const char* mode : {"full", "same", "valid"}) {
    script += "s.correlate(x, t, '" + std::string(mode) + "', method='fft').tofile('" + dir.file(std::string(mode) + ".f64") + "')\n";
  }
  script += "open('" + dir.file("choices.txt") + "', 'w').write(' '.join(s.choose_conv_method(np.zeros(n), np.zeros(m), mode) for n, m, mode in [";
  for (const auto& [n, m, mode] : sizes) script += "(" + std::to_string(n) + ", " + std::to_string(m) + ", '" + mode + "'), ";
  script += "]))\n";
  test::writeFile(dir.file("oracle.py"), script);
  ASSERT_TRUE(test::runPython(dir.file("oracle.py")));
  std::string choices;
  for (const auto& [n, m, mode] : sizes) choices += std::string(choices.empty() ? "" : " ") + (scipyPicksFft(n, m, mode) ? "fft" : "direct");
  EXPECT_EQ(choices, test::readFile(dir.file("choices.txt")));

  const double bound = fftCorrelateBound(x[0], t);
  for (const char* mode : {"full", "same", "valid"}) {
    SCOPED_TRACE(mode);
    const std::string chain = "correlate " + dir.file("t.txt") + ",mode=" + mode;
    PipelineOptions options;
    options.streaming = Streaming::never;
    const PipelineReport fft = runOn(chain + ",method=fft", x, options);
    const PipelineReport direct = runOn(chain + ",method=direct", x, options);
    ASSERT_TRUE(fft.passed() && direct.passed());
    EXPECT_TRUE(fft.channels[0].stages[0].verified);
    const std::vector<double> scipy = rawDoubles(dir.file(std::string(mode) + ".f64"));
    ASSERT_EQ(fft.output.at(0).size(), scipy.size());
    for (std::size_t i = 0; i < scipy.size(); ++i) {
      ASSERT_NEAR(fft.output.at(0)[i], scipy[i], 2 * bound) << i;
      ASSERT_NEAR(fft.output.at(0)[i], direct.output.at(0)[i], bound) << i;
    }
    EXPECT_FALSE(sameBits(fft.output.at(0), direct.output.at(0)));  // the FFT ran, not the sums
    options.streaming = Streaming::always;
    options.blockSamples = 999;
    const PipelineReport streamed = runOn(chain + ",method=fft", x, options);
    EXPECT_TRUE(sameBits(streamed.output.at(0), direct.output.at(0)));
  }
  // auto: SciPy's rule; 5003 x 701 sums directly, 20000 x 2000 takes the FFT.
  PipelineOptions options;
  options.streaming = Streaming::never;
  const PipelineReport small = runOn("correlate " + dir.file("t.txt"), x, options);
  EXPECT_TRUE(sameBits(small.output.at(0), runOn("correlate " + dir.file("t.txt") + ",method=direct", x, options).output.at(0)));
  writeSignal(dir.file("t2.txt"), signalOf(2000, 9));
  const PipelineReport large = runOn("correlate " + dir.file("t2.txt"), {signalOf(20000, 10)}, options);
  EXPECT_NE(large.channels[0].stages[0].why.find("SciPy's rule takes the FFT"), std::string::npos)
      << large.channels[0].stages[0].why;
}

TEST(Correlate, ParallelIsTheSerialBits) {
  const test::TempDir dir;
  writeSignal(dir.file("t.txt"), signalOf(31, 2));
  const std::vector<std::vector<double>> x = {signalOf(300007, 5)};
  PipelineOptions options;
  options.streaming = Streaming::never;
  options.engines = {"cpu-serial"};
  const PipelineReport serial = runOn("correlate " + dir.file("t.txt") + ",mode=same", x, options);
  options.engines = {"cpu-parallel"};
  const PipelineReport parallel = runOn("correlate " + dir.file("t.txt") + ",mode=same", x, options);
  ASSERT_TRUE(serial.passed() && parallel.passed());
  EXPECT_TRUE(parallel.channels[0].stages[0].verified);
  EXPECT_TRUE(sameBits(serial.output.at(0), parallel.output.at(0)));
}

TEST(Correlate, BadValuesAndTemplatesAreRefusedNamingThem) {
  const test::TempDir dir;
  const auto refusal = [](const std::string& chain) {
    try {
      runOn(chain, {signalOf(100, 1)});
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("(not refused)");
  };
  EXPECT_NE(refusal("correlate t.txt,mode=middle").find("mode"), std::string::npos);
  EXPECT_NE(refusal("correlate t.txt,shape=same").find("is not NAME=VALUE"), std::string::npos);
  EXPECT_NE(refusal("correlate mode=same").find("takes TEMPLATE"), std::string::npos);
  const std::string missing = dir.file("missing.txt");
  EXPECT_NE(refusal("correlate " + missing).find(missing), std::string::npos);
  test::writeFile(dir.file("empty.txt"), "");
  EXPECT_NE(refusal("correlate " + dir.file("empty.txt")).find(dir.file("empty.txt")), std::string::npos);
}

// A GPU engine that computes only correlate's FFT (as gpu-fft does), by the CPU's FFT, counting its runs.
class FftCorrelateGpu final : public test::GpuEngineStub {
 public:
  FftCorrelateGpu() : GpuEngineStub("gpu-fft") {}
  std::string whyNotFftCorrelate() const override { return {}; }
  FilterPass fftCorrelate(std::span<const double> x, std::span<const double> reversed, std::uint64_t offset,
                          std::span<double> out, const Progress&) override {
    ++runs;
    siglab::fftCorrelate(x, reversed, offset, out, true);
    return {};
  }
  int runs = 0;
};

// Engine auto takes the GPU's FFT where the auto rule's CorrelateFft row admits it (a long template
// on a long signal; method fft at any taps), with the rule's why; a CPU-only list keeps the CPU's.
TEST(Correlate, AutoTakesTheGpusFftForALongTemplateOnALongSignal) {
  const test::TempDir dir;
  BackendList engines = test::cpuEngines();
  engines.push_back(std::make_unique<FftCorrelateGpu>());
  auto& gpu = static_cast<FftCorrelateGpu&>(*engines.back());
  const BackendList cpuOnly = test::cpuEngines();
  const std::vector<double> x = signalOf(kGpuStageMinSamples, 11);
  writeSignal(dir.file("long.txt"), signalOf(kGpuFftMinTaps, 12));     // SciPy's rule: the direct sums
  writeSignal(dir.file("short.txt"), signalOf(kGpuFftMinTaps - 1, 13));
  PipelineOptions options;
  options.streaming = Streaming::never;
  options.verify = false;  // the FFT's own check is the FFT method's test
  const auto stageOf = [&](const BackendList& list, const std::string& chain, std::span<const double> signal) {
    ChannelSource source;
    source.channels.emplace_back(signal);
    return runPipeline(parseChain(chain), source, MemorySink{}, list, options).channels.at(0).stages.at(0);
  };
  ASSERT_FALSE(scipyPicksFft(x.size(), kGpuFftMinTaps, "full"));
  const StageReport longTemplate = stageOf(engines, "correlate " + dir.file("long.txt"), x);
  EXPECT_EQ(longTemplate.engine, "gpu-fft") << longTemplate.why;
  EXPECT_TRUE(longTemplate.usesGpu);
  EXPECT_EQ(longTemplate.why, autoEngineOrder({AutoWork::CorrelateFft, kGpuFftMinTaps, "gpu-fft", {}, false, x.size()}).front().why);
  EXPECT_EQ(gpu.runs, 1);
  EXPECT_EQ(stageOf(engines, "correlate " + dir.file("short.txt") + ",method=fft", x).engine, "gpu-fft");
  EXPECT_EQ(gpu.runs, 2);
  // On a shorter signal, or with no GPU: the CPU (below the row's taps: AutoEngineRule's tests).
  const std::vector<double> shortSignal(x.begin(), x.end() - 1);
  const StageReport fftShort = stageOf(engines, "correlate " + dir.file("long.txt") + ",method=fft", shortSignal);
  EXPECT_EQ(fftShort.engine, "cpu-parallel");
  EXPECT_NE(fftShort.why.find("not gpu-fft: " + std::to_string(shortSignal.size()) + " samples < "), std::string::npos)
      << fftShort.why;
  const StageReport cpu = stageOf(cpuOnly, "correlate " + dir.file("long.txt") + ",method=fft", x);
  EXPECT_EQ(cpu.engine, "cpu-parallel");
  EXPECT_EQ(cpu.why, "auto: cpu-parallel, FFTW's threads (method fft)");
  EXPECT_EQ(gpu.runs, 2);
}

}  // namespace
}  // namespace siglab
