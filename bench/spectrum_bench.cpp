// Welch's spectrum of a large random signal on the CPU (FFTW, every core) and, where there is one,
// the GPU (cuFFT), timed through measure(): one warm-up, then the median of R runs.
// scripts/bench-spectrum.sh runs it beside scipy.signal.welch on the same samples.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "siglab/cuda_spectrum.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/table_file.hpp"
#include "siglab/measure.hpp"
#include "siglab/spectrum.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace {

using namespace siglab;

void printStats(const char* name, const PhaseStats& stats, double bytes) {
  std::printf("%-12s median %9.3f ms  min %9.3f  max %9.3f  (%d runs)  %.2f GB/s of samples read\n", name,
              stats.total.medianMs, stats.total.minMs, stats.total.maxMs, stats.total.samples,
              bytes / stats.total.medianMs / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Welch spectrum benchmark"};
  std::size_t samples = 10'000'000, segment = 4096;
  int repeat = 20;
  std::uint64_t seed = 1;
  std::string saveSignal, savePower;
  app.add_option("-n,--samples", samples, "Signal length (float64)")->capture_default_str();
  app.add_option("--segment", segment, "Welch segment (half overlap, Hann, density, constant detrend)")->capture_default_str();
  app.add_option("-r,--repeat", repeat, "Timed runs after one warm-up")->capture_default_str();
  app.add_option("--seed", seed, "Random seed of the signal")->capture_default_str();
  app.add_option("--save-signal", saveSignal, "Also write the signal here (.npy), for scipy");
  app.add_option("--save-power", savePower, "Also write the CPU spectrum here (.npy, shape (F, 2))");
  CLI11_PARSE(app, argc, argv);

  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  std::vector<double> x(samples);
  for (std::size_t i = 0; i < samples; ++i) x[i] = std::sin(2e-3 * static_cast<double>(i)) + 0.25 * noise(rng);
  if (!saveSignal.empty()) writeSignal(saveSignal, x);

  WelchOptions options;
  options.segment = segment;
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  std::printf("Welch PSD of %zu float64 samples, segment %zu, overlap %zu, Hann, density; %zu segments; %d threads\n",
              samples, segment, options.overlapOrDefault(), segmentCount(options, samples), threads);
  const MeasureOptions measureOptions{1, repeat};
  const double bytes = static_cast<double>(samples) * sizeof(double);

  Spectrum cpu;
  printStats("cpu (FFTW)", measure([&] { return timeOnHost([&] { cpu = welch(x, options); }); }, measureOptions), bytes);
  if (!savePower.empty()) writeTable(savePower, Table{{"frequency", "power"}, {cpu.frequency, cpu.power}});

  const std::string gpuReason = gpuSpectrumUnavailableReason();
  if (!gpuReason.empty()) {
    std::printf("gpu (cuFFT)  not run: %s\n", gpuReason.c_str());
    return 0;
  }
  GpuSpectrumRun gpu;
  printStats("gpu (cuFFT)", measure([&] { return timeOnHost([&] { gpu = welchGpu(x, options); }); }, measureOptions), bytes);
  if (!gpu.ok) {
    std::printf("gpu (cuFFT)  failed: %s\n", gpu.message.c_str());
    return 1;
  }
  double worst = 0.0, maxAbs = 0.0;
  for (double v : x) maxAbs = std::max(maxAbs, std::fabs(v));
  for (std::size_t k = 0; k < cpu.power.size(); ++k) worst = std::max(worst, std::fabs(gpu.spectrum.power[k] - cpu.power[k]));
  std::printf("gpu vs cpu: max |diff| %.3g, bound %.3g\n", worst, spectrumAgreementBound(options, maxAbs, samples));
  return 0;
}
