// Where cpu-fft overtakes the direct engines: cpu-parallel on non-uniform taps (random, W odd) and
// cpu-running on a mean filter of the same W, swept over W on one random signal, every figure
// through measure() in the same run. Auto takes neither (their bounds are norm-wise, job.hpp): the
// crossover tells a user when naming --engine cpu-fft pays.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/fft_convolution.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/measure.hpp"

namespace {

using namespace siglab;

// W random positive taps summing to 1: nothing uniform for an engine to exploit.
FilterSpec randomTaps(std::size_t window, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> tap(0.1, 1.0);
  FilterSpec spec;
  double sum = 0.0;
  for (std::size_t j = 0; j < window; ++j) sum += spec.taps.emplace_back(tap(rng));
  for (double& t : spec.taps) t /= sum;
  return spec;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cpu-fft against cpu-parallel and cpu-running over W"};
  std::size_t samples = 2'000'000;
  int repeat = 3;
  std::vector<std::size_t> windows{5, 9, 17, 33, 65, 129, 257, 513, 1025};
  app.add_option("-n,--samples", samples, "Signal length (float64)")->capture_default_str();
  app.add_option("-r,--repeat", repeat, "Timed runs after one warm-up")->capture_default_str();
  app.add_option("-w,--windows", windows, "Odd windows to sweep")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> x(samples), out(samples);
  for (double& v : x) v = uniform(rng);
  const MeasureOptions options{1, repeat};
  const auto median = [&](auto&& filter) { return measure([&] { return timeOnHost(filter); }, options).total.medianMs; };

  std::printf("%zu float64 samples, zero mode; median ms of %d runs after a warm-up\n", samples, repeat);
  std::printf("%7s %14s %14s %10s %22s %10s\n", "W", "cpu-parallel", "cpu-fft", "par/fft", "cpu-running (uniform)",
              "run/fft");
  std::size_t crossover = 0;
  for (const std::size_t w : windows) {
    const FilterSpec taps = randomTaps(w, rng);
    const FilterSpec mean = makeMeanFilter(w);
    const double parallel = median([&] { filterParallel(x, taps, out); });
    const double viaFft = median([&] { filterFft(x, taps, out); });
    const double running = median([&] { filterRunning(x, mean, out); });
    std::printf("%7zu %14.3f %14.3f %9.2fx %22.3f %9.2fx\n", w, parallel, viaFft, parallel / viaFft, running,
                running / viaFft);
    if (crossover == 0 && viaFft < parallel) crossover = w;
    std::fflush(stdout);
  }
  if (crossover) {
    std::printf("crossover: cpu-fft is faster than cpu-parallel from W = %zu on (of the windows swept)\n", crossover);
  } else {
    std::printf("crossover: cpu-fft was not faster than cpu-parallel at any window swept\n");
  }
  return 0;
}
