// The GPU engines as engines of issue 27's stages: hilbertCuda against the CPU's transform on
// awkward sizes, and spectrogram (gpu-fft), find-peaks (gpu-tuned), hilbert and envelope (gpu-fft)
// run through the pipeline by name and by auto, against the CPU engines' files. Skips without a GPU.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace siglab
