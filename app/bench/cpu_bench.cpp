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

namespace {

using namespace siglab;

TimingStats timeMedian(int repeat, const std::function<void()>& work) {
  work();  // warm-up: pages touched, caches and branch predictors in their steady state
  std::vector<double> millis;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize(std::move(millis));
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

double parallelRead(const double* x, std::size_t n) {
  double total = 0.0;
#pragma omp parallel for simd reduction(+ : total) schedule(static)
  for (std::size_t i = 0; i < n; ++i) total += x[i];
  return total;
}

struct Row {
  std::string name;
  TimingStats time;
  double bytes;
};

void printRow(const Row& row, double copyMs) {
  std::printf("%-40s %9.3f %9.3f %9.3f %9.1f %10.2f\n", row.name.c_str(), row.time.medianMs, row.time.minMs,
              row.time.maxMs, row.bytes / (row.time.medianMs * 1e6), copyMs / row.time.medianMs);
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

  std::printf("samples: %zu float64 (%.0f MB), threads: %d, repeat: %d (median after a warm-up)\n\n", samples,
              bytes / 1e6, omp_get_max_threads(), repeat);
  std::printf("%-40s %9s %9s %9s %9s %10s\n", "case", "median ms", "min ms", "max ms", "GB/s", "copy/case");

  const Row copyAll{"memcpy, all threads (read + write)", timeMedian(repeat, [&] {
                      parallelCopy(signal.data(), copy.data(), samples);
                    }), 2 * bytes};
  const double copyMs = copyAll.time.medianMs;
  const Row copyOne{"memcpy, one thread", timeMedian(repeat, [&] {
                      std::memcpy(copy.data(), signal.data(), samples * sizeof(double));
                    }), 2 * bytes};
  const Row read{"read, all threads", timeMedian(repeat, [&] { sink = parallelRead(signal.data(), samples); }),
                 bytes};
  const FilterSpec mean5 = makeMeanFilter(5);
  const FilterSpec mean100001 = makeMeanFilter(100001);
  const Row serial5{"cpu-serial W=5", timeMedian(repeat, [&] { filterSerial(signal, mean5, out); }), 2 * bytes};
  const Row parallel5{"cpu-parallel W=5", timeMedian(repeat, [&] { filterParallel(signal, mean5, out); }),
                      2 * bytes};
  const Row parallel5f32{"cpu-parallel W=5 float32", timeMedian(repeat, [&] {
                           filterParallel(signal32, mean5, out32);
                         }), bytes};
  const Row running5{"cpu-running W=5", timeMedian(repeat, [&] { filterRunning(signal, mean5, out); }), 2 * bytes};
  const Row running100001{"cpu-running W=100001", timeMedian(repeat, [&] {
                            filterRunning(signal, mean100001, out);
                          }), 2 * bytes};
  const Row statsParallel{"statistics, parallel", timeMedian(repeat, [&] {
                            sink = statisticsParallel(signal).variance;
                          }), bytes};
  const Row statsSerial{"statistics, serial reference (2 passes)", timeMedian(repeat, [&] {
                          sink = statisticsSerial(signal).variance;
                        }), 2 * bytes};
  for (const Row* row : {&copyAll, &copyOne, &read, &serial5, &parallel5, &parallel5f32, &running5,
                         &running100001, &statsParallel, &statsSerial}) {
    printRow(*row, copyMs);
  }
  (void)sink;

  const double filterShare = copyMs / parallel5.time.medianMs;
  const double statsShare = read.time.medianMs / statsParallel.time.medianMs;
  const double wideRatio = running100001.time.medianMs / parallel5.time.medianMs;
  std::printf("\ntargets (ratios of medians from this run):\n");
  std::printf("  cpu-parallel W=5 at %.0f%% of memcpy bandwidth (target >= 80%%): %s\n", 100 * filterShare,
              verdict(filterShare >= 0.8));
  std::printf("  statistics at %.0f%% of read bandwidth (target >= 80%%): %s\n", 100 * statsShare,
              verdict(statsShare >= 0.8));
  std::printf("  cpu-running W=100001 takes %.2fx cpu-parallel W=5 (target < 3x): %s\n", wideRatio,
              verdict(wideRatio < 3.0));
  std::printf("  (cpu-running W=100001 takes %.2fx cpu-running W=5; cpu-parallel is %.2fx cpu-serial at W=5)\n",
              running100001.time.medianMs / running5.time.medianMs,
              serial5.time.medianMs / parallel5.time.medianMs);
  return 0;
}
