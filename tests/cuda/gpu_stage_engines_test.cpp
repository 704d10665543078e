// The GPU engines as engines of issue 27's stages: hilbertCuda against the CPU's transform on
// awkward sizes, and spectrogram (gpu-fft), find-peaks (gpu-tuned), hilbert and envelope (gpu-fft)
// run through the pipeline by name and by auto, against the CPU engines' files. Skips without a GPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "gpu_test_support.hpp"
#include "siglab/analytic_signal.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/cuda_stages.hpp"
#include "siglab/fft_correlate.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/stage_engine_rule.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::vector<double> noise(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal;
  std::vector<double> x(n);
  for (double& v : x) v = normal(rng);
  return x;
}

// The envelope stage's bound on an FFT's rounding: 16 eps (log2 n + 1) ||x||_2.
double fftBound(const std::vector<double>& x) {
  double energy = 0;
  for (const double v : x) energy += v * v;
  return 16 * std::numeric_limits<double>::epsilon() * (std::log2(static_cast<double>(x.size())) + 1) * std::sqrt(energy);
}

TEST(GpuStageEngines, HilbertAndEnvelopeAgreeWithTheCpuTransformOnAwkwardSizes) {
  SIGLAB_SKIP_WITHOUT_GPU();
  for (const std::size_t n : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{1000}, std::size_t{4097},
                              std::size_t{100003}, std::size_t{1} << 16}) {
    SCOPED_TRACE(n);
    const std::vector<double> x = noise(n, static_cast<unsigned>(n));
    std::vector<double> cpu(n), gpu(n), envelope(n);
    hilbertTransform(x, cpu);
    ASSERT_EQ(hilbertCuda(x, gpu, false).status, GpuStatus::Ok);
    ASSERT_EQ(hilbertCuda(x, envelope, true).status, GpuStatus::Ok);
    const double bound = fftBound(x);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_NEAR(gpu[i], cpu[i], bound) << i;
      ASSERT_NEAR(envelope[i], std::hypot(x[i], cpu[i]), bound) << i;
    }
  }
  std::vector<double> none;
  EXPECT_EQ(hilbertCuda(none, none, false).status, GpuStatus::Ok);
  std::vector<double> one(1), two(2);
  EXPECT_THROW(hilbertCuda(one, two, false), std::invalid_argument);
}

BackendList engines() {
  BackendList list;
  list.push_back(std::make_unique<CpuSerialBackend>());
  list.push_back(std::make_unique<CpuParallelBackend>());
  list.push_back(makeTunedCudaBackend());
  list.push_back(makeCudaFftBackend());
  return list;
}

PipelineReport run(const std::string& chain, const std::vector<std::vector<double>>& x, const std::string& out,
                   const std::string& engine) {
  ChannelSource source;
  source.channels.assign(x.begin(), x.end());
  PipelineOptions options;
  options.engines = {engine};
  static const BackendList list = engines();
  return runPipeline(parseChain(chain), source, FileSink{out, {}}, list, options);
}

// A float64 .npy's values (format 1.0: the header's length in bytes 8 and 9).
std::vector<double> npyValues(const std::string& path) {
  const std::string bytes = test::readFile(path);
  const std::size_t start = 10 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
  std::vector<double> values((bytes.size() - start) / sizeof(double));
  std::memcpy(values.data(), bytes.data() + start, values.size() * sizeof(double));
  return values;
}

TEST(GpuStageEngines, SpectrogramHilbertEnvelopeAndFindPeaksRunOnTheirGpuEnginesByNameAndAuto) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const test::TempDir dir;
  const std::vector<std::vector<double>> x{noise(30011, 1), noise(30011, 2)};
  for (const auto& [chain, engine] : {std::pair{"spectrogram nperseg=300 mode=magnitude", "gpu-fft"},
                                      std::pair{"stft nperseg=128", "gpu-fft"}, std::pair{"hilbert", "gpu-fft"},
                                      std::pair{"find-peaks height=1 distance=4", "gpu-tuned"}}) {
    SCOPED_TRACE(chain);
    const std::string ext = std::string(chain).starts_with("find") ? ".csv" : ".npy";
    const PipelineReport gpu = run(chain, x, dir.file("gpu" + ext), engine);
    const PipelineReport cpu = run(chain, x, dir.file("cpu" + ext), "cpu-serial");
    ASSERT_TRUE(gpu.written && cpu.written);
    EXPECT_EQ(gpu.channels[0].stages.back().engine, engine);
    if (ext == ".csv") {
      EXPECT_EQ(test::readFile(dir.file("gpu.csv")), test::readFile(dir.file("cpu.csv")));
      continue;
    }
    const std::vector<double> g = npyValues(dir.file("gpu.npy")), c = npyValues(dir.file("cpu.npy"));
    ASSERT_EQ(g.size(), c.size());
    double largest = 0, worst = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      largest = std::max(largest, std::abs(c[i]));
      worst = std::max(worst, std::abs(g[i] - c[i]));
    }
    EXPECT_LE(worst, 1e-11 * std::max(largest, 1.0)) << worst;  // an FFT's rounding of O(10^3) values
  }
  // The envelope stage, and auto's choice of the GPU from kGpuStageMinSamples on.
  const std::vector<std::vector<double>> longer{noise(kGpuStageMinSamples + 3, 3)};
  const PipelineReport envelope = run("envelope", longer, dir.file("e.raw"), "auto");
  EXPECT_EQ(envelope.channels[0].stages.back().engine, "gpu-fft") << envelope.channels[0].stages.back().why;
  EXPECT_TRUE(envelope.channels[0].stages.back().verification.passed());
  const PipelineReport frames = run("spectrogram", longer, dir.file("s.npy"), "auto");
  EXPECT_EQ(frames.channels[0].stages.back().engine, "gpu-fft") << frames.channels[0].stages.back().why;
}

// The full correlation's output k = sum_j x[k - j] reversed[j], summed directly in long double.
double directFull(const std::vector<double>& x, const std::vector<double>& reversed, std::int64_t k) {
  const auto n = static_cast<std::int64_t>(x.size()), m = static_cast<std::int64_t>(reversed.size());
  long double sum = 0.0L;
  for (std::int64_t j = std::max<std::int64_t>(0, k - n + 1); j <= std::min(k, m - 1); ++j) {
    sum += static_cast<long double>(x[static_cast<std::size_t>(k - j)]) * reversed[static_cast<std::size_t>(j)];
  }
  return static_cast<double>(sum);
}

// gpu-fft's overlap-save correlate against the direct sums (the CPU's reference) within the FFT
// method's bound, on awkward sizes (templates longer than the signal too) and SciPy's three
// windows of the full output: full, same (centred, n outputs), valid (|n - m| + 1 outputs).
TEST(GpuStageEngines, FftCorrelateAgreesWithTheDirectSumsOnAwkwardSizesAndModes) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::unique_ptr<FilterBackend> fft = makeCudaFftBackend();
  ASSERT_EQ(fft->whyNotFftCorrelate(), "");
  for (const auto& [n, m] : {std::pair<std::size_t, std::size_t>{1, 1}, {5, 17}, {1000, 1000}, {4097, 33},
                             {100003, 5000}, {3, 70001}, {70001, 3}, {2, 1}}) {
    const std::vector<double> x = noise(n, static_cast<unsigned>(n)), t = noise(m, static_cast<unsigned>(m + 7));
    const std::vector<double> reversed(t.rbegin(), t.rend());
    const std::uint64_t full = n + m - 1, shorter = std::min(n, m);
    for (const auto& [mode, offset, count] : {std::tuple{"full", std::uint64_t{0}, full},
                                              std::tuple{"same", std::uint64_t{(m - 1) / 2}, std::uint64_t{n}},
                                              std::tuple{"valid", shorter - 1, std::max(n, m) - shorter + 1}}) {
      SCOPED_TRACE(std::to_string(n) + " x " + std::to_string(m) + " " + mode);
      std::vector<double> out(count, NAN);
      fft->fftCorrelate(x, reversed, offset, out, {});
      const double bound = fftCorrelateBound(x, t);
      const std::size_t step = count > 4000 ? count / 997 : 1;  // every output, or about a thousand of them
      for (std::size_t i = 0; i < count; i += step) {
        ASSERT_NEAR(out[i], directFull(x, reversed, static_cast<std::int64_t>(offset + i)), bound) << i;
      }
      ASSERT_NEAR(out.back(), directFull(x, reversed, static_cast<std::int64_t>(offset + count - 1)), bound);
    }
  }
}

// Through the stage: method=fft named on gpu-fft runs there (it was refused: FFTW only), checked
// against its direct sums, and agrees with the CPU's FFT; auto keeps SciPy's rule (direct for a
// short template, whatever engine sums it).
TEST(GpuStageEngines, CorrelateWithMethodFftRunsOnGpuFftByName) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const test::TempDir dir;
  const std::string templ = dir.file("t.npy");
  const std::vector<double> t = noise(3001, 9);
  writeSignal(templ, t);
  const std::vector<std::vector<double>> x{noise(50021, 8)};
  const double bound = 2 * fftCorrelateBound(x[0], t);  // each within its bound of the direct sums
  for (const std::string mode : {"full", "same", "valid"}) {
    SCOPED_TRACE(mode);
    const std::string chain = "correlate " + templ + ",mode=" + mode + ",method=fft";
    const PipelineReport gpu = run(chain, x, dir.file("g.npy"), "gpu-fft");
    ASSERT_TRUE(gpu.written);
    EXPECT_EQ(gpu.channels[0].stages.back().engine, "gpu-fft");
    EXPECT_TRUE(gpu.channels[0].stages.back().verification.passed());
    ASSERT_TRUE(run(chain, x, dir.file("c.npy"), "cpu-serial").written);
    const std::vector<double> g = npyValues(dir.file("g.npy")), c = npyValues(dir.file("c.npy"));
    ASSERT_EQ(g.size(), c.size());
    for (std::size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], c[i], bound) << i;
  }
}

// Streamed, the envelope named on gpu-fft transforms each overlapped block on the GPU (it ran in
// memory before): the CPU's streamed envelope within the FFT's rounding of each block.
TEST(GpuStageEngines, EnvelopeStreamsItsOverlappedBlocksOnGpuFft) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const test::TempDir dir;
  const std::vector<double> x = noise((std::size_t{1} << 19) + 12345, 5);
  writeSignal(dir.file("in.npy"), x);
  PipelineOptions options;
  options.streaming = Streaming::always;
  static const BackendList list = engines();
  options.engines = {"gpu-fft"};
  const PipelineReport gpu =
      runPipeline(parseChain("envelope"), FileSource{dir.file("in.npy"), {}}, FileSink{dir.file("g.npy"), {}}, list, options);
  EXPECT_TRUE(gpu.plan.stream) << gpu.plan.why;
  ASSERT_TRUE(gpu.written);
  EXPECT_EQ(gpu.channels[0].stages.back().engine, "gpu-fft");
  options.engines = {"cpu-serial"};
  ASSERT_TRUE(runPipeline(parseChain("envelope"), FileSource{dir.file("in.npy"), {}}, FileSink{dir.file("c.npy"), {}},
                          list, options)
                  .written);
  const std::vector<double> g = npyValues(dir.file("g.npy")), c = npyValues(dir.file("c.npy"));
  ASSERT_EQ(g.size(), x.size());
  ASSERT_EQ(c.size(), x.size());
  const double bound = fftBound(x);  // a block's rounding is within the whole signal's
  for (std::size_t i = 0; i < g.size(); ++i) ASSERT_NEAR(g[i], c[i], bound) << i;
}

}  // namespace
}  // namespace siglab
