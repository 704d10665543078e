// cpu-fft (FFTW overlap-save) against cpu-parallel (direct sums, every core, SIMD) on a long
// Gaussian, timed through measure() in the same run, with the largest difference between them
// against cpu-fft's stated tolerance.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/fft_convolution.hpp"
#include "siglab/measure.hpp"
#include "siglab/taps.hpp"

int main(int argc, char** argv) {
  using namespace siglab;
  CLI::App app{"cpu-fft against cpu-parallel"};
  std::size_t samples = 10'000'000;
  double sigma = 1000.0;
  int repeat = 3;
  app.add_option("-n,--samples", samples, "Signal length (float64)")->capture_default_str();
  app.add_option("--sigma", sigma, "Gaussian sigma (W = 2 round(4 sigma) + 1)")->capture_default_str();
  app.add_option("-r,--repeat", repeat, "Timed runs after one warm-up")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> x(samples), direct(samples), fft(samples);
  for (double& v : x) v = uniform(rng);
  const FilterSpec spec = makeGaussianFilter(sigma);
  std::printf("Gaussian sigma %g (W = %zu, FFT length %zu) on %zu float64 samples, zero mode\n", sigma, spec.window(),
              fftBlockLength(spec.window()), samples);
  const MeasureOptions options{1, repeat};
  const PhaseStats parallel = measure([&] { return timeOnHost([&] { filterParallel(x, spec, direct); }); }, options);
  const PhaseStats viaFft = measure([&] { return timeOnHost([&] { filterFft(x, spec, fft); }); }, options);
  std::printf("cpu-parallel median %10.2f ms  (min %.2f, max %.2f, %d runs)\n", parallel.total.medianMs,
              parallel.total.minMs, parallel.total.maxMs, parallel.total.samples);
  std::printf("cpu-fft      median %10.2f ms  (min %.2f, max %.2f, %d runs)\n", viaFft.total.medianMs, viaFft.total.minMs,
              viaFft.total.maxMs, viaFft.total.samples);
  double worst = 0.0;
  for (std::size_t i = 0; i < samples; ++i) worst = std::max(worst, std::fabs(fft[i] - direct[i]));
  const double tolerance = CpuFftBackend().tolerance(spec, 1.0);
  std::printf("max |cpu-fft - cpu-parallel| = %.3g, tolerance %.3g: %s\n", worst, tolerance,
              worst <= tolerance ? "within" : "OUTSIDE");
  const double ratio = parallel.total.medianMs / viaFft.total.medianMs;
  std::printf("ratio: cpu-fft is %.1fx faster than cpu-parallel (target >= 20x: %s)\n", ratio, ratio >= 20 ? "met" : "MISSED");
  return worst <= tolerance ? 0 : 1;
}
