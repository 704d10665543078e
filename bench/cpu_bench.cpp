// The CPU engines against this machine's memory bandwidth, measured in the same run: a parallel
// memcpy (what a filter that reads N and writes N samples cannot beat) and a parallel read (what
// a statistics pass cannot beat). Every case: one warm-up, then the median of R runs.
#include <CLI/CLI.hpp>
#include <omp.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/generate.hpp"
#include "siglab/statistics.hpp"
#include "siglab/timing.hpp"

// Vectors cross no call here that another compiler would see: the ABI note is moot.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace {

using namespace siglab;

struct Case {
  std::string name;
  double bytes;  // moved per run: read + written
  std::function<void()> work;
  std::vector<double> millis;
};

// Every case once as a warm-up (pages touched, caches and predictors settled), then `repeat`
// rounds of every case in turn, so that other load on the machine falls on all cases alike.
void timeInterleaved(std::vector<Case>& cases, int repeat) {
  for (Case& c : cases) c.work();
  for (int r = 0; r < repeat; ++r) {
    for (Case& c : cases) {
      const auto start = std::chrono::steady_clock::now();
      c.work();
      c.millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
  }
}

std::string loadAverage() {
  std::FILE* f = std::fopen("/proc/loadavg", "r");
  char line[128] = "unknown";
  if (f) {
    if (!std::fgets(line, sizeof line, f)) std::snprintf(line, sizeof line, "unknown");
    std::fclose(f);
  }
  std::string text(line);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void parallelCopy(const double* from, double* to, std::size_t n) {
#pragma omp parallel
  {
    const std::size_t parts = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t part = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t begin = n * part / parts, end = n * (part + 1) / parts;
    std::memcpy(to + begin, from + begin, (end - begin) * sizeof(double));
  }
}

using Vec4 [[gnu::vector_size(32)]] = double;

// The fastest plain read we have: four independent vector sums, so that no add latency shows.
[[gnu::always_inline]] inline Vec4 load(const double* p) {
  Vec4 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

[[gnu::target_clones("avx2", "default")]] double readPiece(const double* x, std::size_t n) {
  Vec4 a = {}, b = {}, c = {}, d = {};
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    a += load(x + i);
    b += load(x + i + 4);
    c += load(x + i + 8);
    d += load(x + i + 12);
  }
  const Vec4 s = (a + b) + (c + d);
  double total = (s[0] + s[1]) + (s[2] + s[3]);
  for (; i < n; ++i) total += x[i];
  return total;
}

double parallelRead(const double* x, std::size_t n) {
  double total = 0.0;
#pragma omp parallel reduction(+ : total)
  {
    const std::size_t parts = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t part = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t begin = n * part / parts, end = n * (part + 1) / parts;
    total += readPiece(x + begin, end - begin);
  }
  return total;
}

const char* verdict(bool met) { return met ? "met" : "NOT met"; }

}  // namespace

int main(int argc, char** argv) {
  std::size_t samples = 10'000'000;
  int repeat = 20;
  CLI::App app{"SigLab CPU benchmark: engines against memcpy and read bandwidth, measured in the same run"};
  app.add_option("-n,--samples", samples, "Signal length (float64)")->capture_default_str();
  app.add_option("-r,--repeat", repeat, "Timed runs per case after one warm-up")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const std::vector<double> signal = generateSignal({samples, 42, 2000.0, 1.0, 0.25});
  std::vector<double> out(samples, 0.0), copy(samples, 0.0);
  const std::vector<float> signal32(signal.begin(), signal.end());
  std::vector<float> out32(samples, 0.0f);
  const double bytes = static_cast<double>(samples * sizeof(double));
  volatile double sink = 0.0;

  std::printf("samples: %zu float64 (%.0f MB), threads: %d, repeat: %d (median after a warm-up, cases interleaved)\n",
              samples, bytes / 1e6, omp_get_max_threads(), repeat);
  std::printf("load average before: %s\n\n", loadAverage().c_str());

  const FilterSpec mean5 = makeMeanFilter(5);
  const FilterSpec mean100001 = makeMeanFilter(100001);
  std::vector<Case> cases = {
      {"memcpy, all threads (read + write)", 2 * bytes, [&] { parallelCopy(signal.data(), copy.data(), samples); }, {}},
      {"memcpy, one thread", 2 * bytes,
       [&] { std::memcpy(copy.data(), signal.data(), samples * sizeof(double)); }, {}},
      {"read, all threads", bytes, [&] { sink = parallelRead(signal.data(), samples); }, {}},
      {"cpu-serial W=5", 2 * bytes, [&] { filterSerial(signal, mean5, out); }, {}},
      {"cpu-parallel W=5", 2 * bytes, [&] { filterParallel(signal, mean5, out); }, {}},
      {"cpu-parallel W=5 float32", bytes, [&] { filterParallel(signal32, mean5, out32); }, {}},
      {"cpu-running W=5", 2 * bytes, [&] { filterRunning(signal, mean5, out); }, {}},
      {"cpu-running W=100001", 2 * bytes, [&] { filterRunning(signal, mean100001, out); }, {}},
      {"statistics, parallel", bytes, [&] { sink = statisticsParallel(signal).variance; }, {}},
      {"statistics, serial reference (2 passes)", 2 * bytes, [&] { sink = statisticsSerial(signal).variance; }, {}},
  };
  timeInterleaved(cases, repeat);
  (void)sink;

  std::vector<TimingStats> t;
  for (const Case& c : cases) t.push_back(summarize(c.millis));
  const double copyMs = t[0].medianMs;
  std::printf("%-40s %9s %9s %9s %9s %10s\n", "case", "median ms", "min ms", "max ms", "GB/s", "copy/case");
  for (std::size_t i = 0; i < cases.size(); ++i) {
    std::printf("%-40s %9.3f %9.3f %9.3f %9.1f %10.2f\n", cases[i].name.c_str(), t[i].medianMs, t[i].minMs,
                t[i].maxMs, cases[i].bytes / (t[i].medianMs * 1e6), copyMs / t[i].medianMs);
  }
  std::printf("\nload average after: %s\n", loadAverage().c_str());

  const double readMs = t[2].medianMs, serialMs = t[3].medianMs, parallelMs = t[4].medianMs;
  const double running5Ms = t[6].medianMs, running100001Ms = t[7].medianMs, statsMs = t[8].medianMs;
  const double filterShare = copyMs / parallelMs, statsShare = readMs / statsMs;
  const double wideRatio = running100001Ms / parallelMs;
  std::printf("\ntargets (ratios of medians from this run):\n");
  std::printf("  cpu-parallel W=5 at %.0f%% of memcpy bandwidth (target >= 80%%): %s\n", 100 * filterShare,
              verdict(filterShare >= 0.8));
  std::printf("  statistics at %.0f%% of read bandwidth (target >= 80%%): %s\n", 100 * statsShare,
              verdict(statsShare >= 0.8));
  std::printf("  cpu-running W=100001 takes %.2fx cpu-parallel W=5 (target < 3x): %s\n", wideRatio,
              verdict(wideRatio < 3.0));
  std::printf("  (cpu-running W=100001 takes %.2fx cpu-running W=5; cpu-parallel is %.2fx cpu-serial at W=5)\n",
              running100001Ms / running5Ms, serialMs / parallelMs);
  return 0;
}
