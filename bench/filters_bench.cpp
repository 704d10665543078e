// The filter algorithms of median_filter.hpp and sos_filter.hpp: the parallel median against
// scipy.ndimage.median_filter (timed by bench/scipy_filters_timing.py in the same run, on the same
// samples), the sorted-window median against an O(log W) structure, and the parallel Butterworth
// scan against its serial reference. All timing through measure(): a warm-up, then the median.
#include <CLI/CLI.hpp>
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/generate.hpp"
#include "siglab/measure.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/sos_filter.hpp"

namespace {

using namespace siglab;

TimingStats timeIt(const std::function<void()>& work, int repeats) {
  return measure([&] { return timeOnHost(work); }, MeasureOptions{1, repeats}).total;
}

// The O(log W) alternative: two multisets (the lower half with the median, the upper half),
// rebalanced after each removal and insertion. Reflect mode, one thread; for the structure choice.
std::vector<double> multisetMedian(const std::vector<double>& x, std::size_t w) {
  const auto n = static_cast<std::int64_t>(x.size()), r = static_cast<std::int64_t>(w / 2);
  const auto at = [&](std::int64_t k) { return x[static_cast<std::size_t>(boundaryIndex(k, n, BoundaryMode::Reflect))]; };
  std::multiset<double> low, high;
  const auto balance = [&] {
    while (low.size() > high.size() + 1) {
      high.insert(*std::prev(low.end()));
      low.erase(std::prev(low.end()));
    }
    while (high.size() > low.size()) {
      low.insert(*high.begin());
      high.erase(high.begin());
    }
  };
  const auto insert = [&](double v) {
    if (!low.empty() && v > *std::prev(low.end())) {
      high.insert(v);
    } else {
      low.insert(v);
    }
    balance();
  };
  for (std::int64_t k = -r; k <= r; ++k) insert(at(k));
  std::vector<double> out(x.size());
  for (std::int64_t i = 0; i < n; ++i) {
    out[static_cast<std::size_t>(i)] = *std::prev(low.end());
    const double gone = at(i - r);
    if (auto it = low.find(gone); it != low.end() && gone <= *std::prev(low.end())) {
      low.erase(it);
    } else {
      high.erase(high.find(gone));
    }
    insert(at(i + r + 1));
  }
  return out;
}

std::string scipyTiming(const std::vector<double>& x, std::size_t window, int repeats, const std::string& script) {
  const std::string path = "/tmp/siglab-filters-bench-" + std::to_string(::getpid()) + ".f64";
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(x.data()), static_cast<std::streamsize>(x.size() * sizeof(double)));
  const std::string command =
      "/usr/bin/python3 " + script + " " + path + " " + std::to_string(window) + " " + std::to_string(repeats);
  std::string output;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char line[256];
    while (std::fgets(line, sizeof line, pipe)) output += line;
    ::pclose(pipe);
  }
  std::remove(path.c_str());
  return output;
}

std::string loadAverage() {
  std::ifstream file("/proc/loadavg");
  std::string line;
  std::getline(file, line);
  return line.empty() ? "unknown" : line;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t samples = 10'000'000;
  int repeats = 5, scipyRepeats = 3;
  std::string script = SIGLAB_SCIPY_TIMING_SCRIPT;
  CLI::App app{"SigLab filter algorithms: median and Butterworth engines, and SciPy, timed in the same run"};
  app.add_option("-n,--samples", samples, "Signal length (float64)")->capture_default_str();
  app.add_option("-r,--repeat", repeats, "Timed runs per SigLab case after one warm-up")->capture_default_str();
  app.add_option("--scipy-repeat", scipyRepeats, "Timed runs of SciPy after one warm-up")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const std::vector<double> x = generateSignal({samples, 42, 2000.0, 1.0, 0.25});
  std::vector<double> out(samples), check(samples);
  std::printf("samples: %zu float64, threads: %d, SigLab repeats: %d, SciPy repeats: %d (medians after a warm-up)\n\n",
              samples, omp_get_max_threads(), repeats, scipyRepeats);
  std::printf("load average before: %s\n\n", loadAverage().c_str());

  // 1. Median W = 101 against SciPy.
  const std::size_t w = 101;
  const TimingStats parallel = timeIt([&] { medianFilterParallel(x, w, BoundaryMode::Reflect, out); }, repeats);
  // The same through the engine the CLI and GUI run (--median 101 --mode reflect --engine cpu-parallel).
  CpuParallelBackend engine;
  const FilterSpec medianSpec = makeMedianFilter(w, BoundaryMode::Reflect);
  const TimingStats viaEngine = measure([&] { return engine.filter(std::span<const double>(x), medianSpec, std::span<double>(check), {}).phases; },
                                        MeasureOptions{1, repeats}).total;
  std::istringstream scipyOut(scipyTiming(x, w, scipyRepeats, script));
  std::string name;
  double scipyMs = 0, scipyMin = 0, scipyMax = 0;
  scipyOut >> name >> scipyMs >> scipyMin >> scipyMax;
  std::printf("median W=%zu reflect:\n", w);
  std::printf("  %-36s %10.1f ms (min %.1f, max %.1f)\n", "siglab medianFilterParallel", parallel.medianMs,
              parallel.minMs, parallel.maxMs);
  if (scipyMs > 0) {
    std::printf("  %-36s %10.1f ms (min %.1f, max %.1f)\n", name.c_str(), scipyMs, scipyMin, scipyMax);
    std::printf("  %-36s %10.1f ms (min %.1f, max %.1f)%s\n", "cpu-parallel engine (--median)", viaEngine.medianMs,
                viaEngine.minMs, viaEngine.maxMs, check == out ? "" : " (outputs differ!)");
    std::printf("  ratio scipy / siglab parallel: %.1fx (target >= 5x): %s\n", scipyMs / parallel.medianMs,
                scipyMs / parallel.medianMs >= 5 ? "met" : "NOT met");
    std::printf("  ratio scipy / cpu-parallel engine: %.1fx (target >= 5x): %s\n\n", scipyMs / viaEngine.medianMs,
                scipyMs / viaEngine.medianMs >= 5 ? "met" : "NOT met");
  } else {
    std::printf("  scipy timing failed (is python3-scipy installed?)\n\n");
  }

  // 2. The sliding structure, one thread, 1M samples: sorted window + memmove against multisets.
  std::printf("median structure, one thread, 1M samples, reflect (ns per output):\n");
  std::printf("  %8s %16s %16s\n", "W", "sorted window", "two multisets");
  const std::vector<double> part(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(samples, 1'000'000)));
  std::vector<double> partOut(part.size());
  const int threads = omp_get_max_threads();
  omp_set_num_threads(1);
  for (std::size_t width : {11u, 101u, 1001u, 10001u}) {
    std::vector<double> viaSets;
    const TimingStats sorted = timeIt([&] { medianFilterParallel(part, width, BoundaryMode::Reflect, partOut); }, 3);
    const TimingStats sets = timeIt([&] { viaSets = multisetMedian(part, width); }, 3);
    const bool same = viaSets == partOut;
    std::printf("  %8zu %16.1f %16.1f %s\n", width, sorted.medianMs * 1e6 / static_cast<double>(part.size()),
                sets.medianMs * 1e6 / static_cast<double>(part.size()), same ? "" : "(outputs differ!)");
  }
  omp_set_num_threads(threads);

  // 3. Butterworth order 8 band-pass, zero phase.
  const Sections bandpass = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  double bound = 0;
  const TimingStats serialZp = timeIt([&] { sosfiltfilt(bandpass, x, check); }, repeats);
  const TimingStats parallelZp = timeIt([&] { bound = sosfiltfiltParallel(bandpass, x, out); }, repeats);
  double worst = 0, peak = 0;
  for (std::size_t i = 0; i < samples; ++i) {
    worst = std::max(worst, std::abs(out[i] - check[i]));
    peak = std::max(peak, std::abs(check[i]));
  }
  std::printf("\nbutterworth order 8 band-pass [0.1, 0.3] Nyquist, zero phase (%zu sections):\n", bandpass.size());
  std::printf("  %-36s %10.1f ms\n", "sosfiltfilt serial reference", serialZp.medianMs);
  std::printf("  %-36s %10.1f ms\n", "sosfiltfiltParallel (block scan)", parallelZp.medianMs);
  std::printf("  ratio serial / parallel: %.2fx on %d threads\n", serialZp.medianMs / parallelZp.medianMs, threads);
  std::printf("  max |parallel - serial| = %.3g (%.3g of the output peak), stated bound %.3g: %s\n", worst,
              worst / peak, bound, worst <= bound ? "within" : "EXCEEDED");
  std::printf("\nload average after: %s\n", loadAverage().c_str());
  return 0;
}
