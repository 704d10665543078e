// hilbert and envelope (issue 27 item 3): against SciPy 1.10 on awkward sizes and channel counts,
// streamed against in memory (the same bits within one block; within kOverlappedAnalyticBound,
// measured here on several kinds of signal, across blocks), cpu-parallel against cpu-serial, and
// the refusals before any output.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <random>

#include "engine_test_support.hpp"
#include "scipy_support.hpp"
#include "siglab/analytic_signal.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/large_page_buffer.hpp"
#include "siglab/pipeline_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::vector<std::vector<double>> noiseChannels(std::size_t n, std::size_t c, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<std::vector<double>> channels(c, std::vector<double>(n));
  for (auto& channel : channels) {
    for (double& v : channel) v = normal(rng) + 0.5;  // a mean: DC is the bin SciPy keeps undoubled
  }
  return channels;
}

std::string writeInput(const test::TempDir& dir, const std::string& name, const std::vector<std::vector<double>>& x) {
  const std::string path = dir.file(name + ".npy");
  std::vector<std::span<const double>> spans(x.begin(), x.end());
  writeChannels(path, spans);
  return path;
}

PipelineReport inMemory(const std::string& chain, const std::vector<std::vector<double>>& x, const PipelineSink& sink,
                        const std::string& engine = "auto") {
  ChannelSource source;
  source.channels.assign(x.begin(), x.end());
  PipelineOptions options;
  options.engines = {engine};
  options.streaming = Streaming::never;
  return runPipeline(parseChain(chain), source, sink, test::cpuEngines(), options);
}

PipelineReport streamed(const std::string& chain, const std::string& in, const std::string& out, std::size_t block) {
  PipelineOptions options;
  options.streaming = Streaming::always;
  options.blockSamples = block;
  return runPipeline(parseChain(chain), FileSource{in, {}}, FileSink{out, {}}, test::cpuEngines(), options);
}

TEST(Envelope, HilbertAndEnvelopeAgreeWithScipyOnAwkwardSizesAndChannels) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const test::TempDir dir;
  std::string script = "import numpy as np, scipy.signal as s\nbad = []\n";
  for (const std::size_t n : {1, 2, 5, 1236, 4099}) {  // 1 and 2: DC (and Nyquist) only; odd and even; 4099 prime
    for (const std::size_t c : {1, 2}) {
      const std::string name = std::to_string(n) + "x" + std::to_string(c);
      const auto x = noiseChannels(n, c, n * 10 + c);
      const std::string in = writeInput(dir, "in" + name, x);
      ASSERT_TRUE(inMemory("envelope", x, FileSink{dir.file("env" + name + ".npy"), {}}).written);
      ASSERT_TRUE(streamed("envelope", in, dir.file("envs" + name + ".npy"), 1000).written);
      ASSERT_TRUE(inMemory("hilbert", x, FileSink{dir.file("hil" + name + ".npy"), {}}).written);
      ASSERT_TRUE(streamed("hilbert", in, dir.file("hils" + name + ".npy"), 1000).written);
      script += "x = np.load('" + in + "').reshape(" + std::to_string(n) + ", -1)\nz = s.hilbert(x, axis=0)\n"
                "want = np.stack([z.real, z.imag], axis=2).reshape(" + std::to_string(n) + ", -1)\n"
                "for f, w in [('env', np.abs(z)), ('envs', np.abs(z)), ('hil', want), ('hils', want)]:\n"
                "  a = np.load('" + dir.file("") + "' + f + '" + name + ".npy').reshape(w.shape)\n"
                "  e = np.max(np.abs(a - w)) / np.max(np.abs(x))\n"
                "  if not e < 1e-13: bad.append('%s" + name + ": %g' % (f, e))\n";
    }
  }
  script += "assert not bad, bad\n";
  test::writeFile(dir.file("check.py"), script);
  std::string error;
  EXPECT_TRUE(test::runPython(dir.file("check.py"), &error)) << error;
}

// SciPy refuses an empty signal (N must be positive); here it is an empty result.
TEST(Envelope, AnEmptySignalGivesAnEmptyResult) {
  const test::TempDir dir;
  const PipelineReport report = inMemory("envelope", {{}}, MemorySink{});
  ASSERT_EQ(report.output.size(), 1u);
  EXPECT_EQ(report.output[0].size(), 0u);
  ASSERT_TRUE(inMemory("hilbert", {{}}, FileSink{dir.file("h.npy"), {}}).written);
  EXPECT_NE(test::readFile(dir.file("h.npy")).find("'shape': (0, 2)"), std::string::npos);
}

// Within one block (the signal no longer than a block and its halo) the stream transforms the whole
// signal: cpu-serial's bits for every block size the chain reads in.
TEST(Envelope, StreamedWithinOneBlockIsTheInMemoryBits) {
  const test::TempDir dir;
  for (const std::size_t c : {1, 2}) {
    const auto x = noiseChannels(3001, c, 5 + c);
    const std::string in = writeInput(dir, "in" + std::to_string(c), x);
    for (const std::string chain : {"envelope", "hilbert", "mean 3; envelope"}) {
      SCOPED_TRACE(chain + ", " + std::to_string(c) + " channels");
      ASSERT_TRUE(inMemory(chain, x, FileSink{dir.file("whole.npy"), {}}, "cpu-serial").written);
      for (const std::size_t block : {7, 100000}) {
        const PipelineReport report = streamed(chain, in, dir.file("blocks.npy"), block);
        EXPECT_TRUE(report.plan.stream) << report.plan.why;
        EXPECT_TRUE(test::readFile(dir.file("blocks.npy")) == test::readFile(dir.file("whole.npy"))) << "block " << block;
      }
    }
  }
}

// The stated bound, measured: the blocked transform against the whole signal's on kinds of signal,
// away from the ends the whole transform wraps together. The figures print for the record.
TEST(Envelope, OverlappedBlocksStayWithinTheStatedBoundOfTheWholeTransform) {
  const std::size_t n = 655360;  // three blocks, the last one short; every transform of a length FFTW does fast
  const AnalyticBlocks sizes;
  std::mt19937_64 rng(11);
  std::normal_distribution<double> normal;
  struct Kind {
    const char* name;
    std::function<double(double)> at;
    double bound;
  };
  const double pi = std::numbers::pi;
  const std::vector<Kind> kinds = {
      {"white noise", [&](double) { return normal(rng); }, 2e-3},
      {"tone 0.0123", [&](double t) { return std::sin(2 * pi * 0.0123 * t); }, 2e-4},
      {"chirp 0.01-0.4", [&](double t) { return std::cos(2 * pi * (0.01 + 0.39 * t / (2.0 * n)) * t); }, 2e-4},
      {"tone 1/2000", [&](double t) { return std::sin(2 * pi * t / 2000); }, 3e-3},
  };
  for (const Kind& kind : kinds) {
    std::vector<double> x(n);
    double peak = 0;
    for (std::size_t i = 0; i < n; ++i) peak = std::max(peak, std::fabs(x[i] = kind.at(static_cast<double>(i))));
    std::vector<double> re(n), im(n), blockedRe, blockedIm;
    analyticSignal(x, re, im);
    OverlappedAnalytic blocks([&](std::span<const double> r, std::span<const double> i) {
      blockedRe.insert(blockedRe.end(), r.begin(), r.end());
      blockedIm.insert(blockedIm.end(), i.begin(), i.end());
    });
    for (std::size_t at = 0; at < n; at += 77777) blocks.push(std::span<const double>(x).subspan(at, std::min<std::size_t>(77777, n - at)));
    blocks.finish();
    ASSERT_EQ(blockedRe.size(), n);
    double worst = 0;
    for (std::size_t i = sizes.halo; i + sizes.halo < n; ++i) {
      worst = std::max(worst, std::hypot(blockedRe[i] - re[i], blockedIm[i] - im[i]) / peak);
    }
    std::printf("[ bound    ] %-16s max |blocked - whole| / max|x| = %.2e (stated %.0e)\n", kind.name, worst, kind.bound);
    EXPECT_LT(worst, kind.bound) << kind.name;
  }
}

TEST(Envelope, ParallelIsSerialWithinTheFftsRounding) {
  const auto x = noiseChannels(163840, 1, 3);  // 5 x 2^15: a length FFTW splits among threads
  const PipelineReport serial = inMemory("envelope", x, MemorySink{}, "cpu-serial");
  const PipelineReport parallel = inMemory("envelope", x, MemorySink{}, "cpu-parallel");
  ASSERT_TRUE(serial.passed() && parallel.passed());
  EXPECT_EQ(parallel.channels[0].stages[0].engine, "cpu-parallel");
  double worst = 0;
  for (std::size_t i = 0; i < x[0].size(); ++i) worst = std::max(worst, std::fabs(serial.output[0][i] - parallel.output[0][i]));
  EXPECT_LT(worst, 1e-12);
}

// The check's kernel sum (hilbertAt: each g[m] once for x[p - m] - x[p + m], on every core) is the
// transform's value at every position asked, for even and odd lengths, positions at both ends.
TEST(Envelope, TheChecksKernelSumIsTheTransformAtAnyPosition) {
  for (const std::size_t n : {std::size_t{65538}, std::size_t{65537}, std::size_t{7}}) {
    const std::vector<double> x = noiseChannels(n, 1, n)[0];
    std::vector<double> im(n);
    hilbertTransform(x, im, true);
    const std::vector<std::size_t> positions = {0, 1, n / 2, n - 1};
    const std::vector<double> at = hilbertAt(x, positions);
    for (std::size_t k = 0; k < positions.size(); ++k) {
      EXPECT_NEAR(at[k], im[positions[k]], 1e-11) << n << " samples, position " << positions[k];
    }
  }
}

// A large result comes in 2 MiB pages (largePageResource), not malloc's 4 KiB ones.
TEST(Envelope, ALargeResultIsInLargePages) {
  const auto x = noiseChannels(std::size_t{1} << 19, 1, 5);
  const Pipeline chain = parseChain("envelope");
  const auto stage = chain.stages.front().kind->bind(chain.stages.front().values, StageContext{});
  const AppliedJob applied = stage->apply(test::cpuEngines(), x[0], StageRunOptions{});
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(applied.result.output.data()) % kLargePageBytes, 0u);
}

TEST(Envelope, AutoKeepsASignalThatFitsInMemoryAndSaysWhy) {
  const test::TempDir dir;
  const auto x = noiseChannels(5000, 1, 9);
  const std::string in = writeInput(dir, "in", x);
  PipelineOptions options;
  const PipelineReport report = runPipeline(parseChain("envelope"), FileSource{in, {}}, FileSink{dir.file("e.npy"), {}}, test::cpuEngines(), options);
  EXPECT_FALSE(report.plan.stream);
  EXPECT_NE(report.plan.why.find("envelope"), std::string::npos) << report.plan.why;
  const PipelineReport hilbert = runPipeline(parseChain("hilbert"), FileSource{in, {}}, FileSink{dir.file("h.npy"), {}}, test::cpuEngines(), options);
  EXPECT_FALSE(hilbert.plan.stream) << hilbert.plan.why;
}

// A NaN spreads over the whole transform, as in SciPy: every output NaN, and the check agrees.
TEST(Envelope, ANanInputGivesNanEverywhereAndPassesItsCheck) {
  std::vector<std::vector<double>> x = noiseChannels(64, 1, 2);
  x[0][10] = std::nan("");
  const PipelineReport report = inMemory("envelope", x, MemorySink{}, "cpu-serial");
  EXPECT_TRUE(report.passed());
  for (const double v : report.output.at(0)) EXPECT_TRUE(std::isnan(v));
}

TEST(Envelope, BadValuesAndOutputsAreRefusedBeforeAnyOutput) {
  const test::TempDir dir;
  EXPECT_THROW(parseChain("envelope 3"), StageError);
  const std::string csv = dir.file("h.csv");
  try {
    inMemory("hilbert", noiseChannels(10, 1, 1), FileSink{csv, {}});
    ADD_FAILURE() << "a .csv output was not refused";
  } catch (const StageError& e) {
    EXPECT_NE(std::string(e.what()).find(".npy"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(std::filesystem::exists(csv));
  EXPECT_THROW(parseChain("hilbert; mean 3"), StageError);
}

}  // namespace
}  // namespace siglab
