// siglab-scan-bench: the sections' block scan alone (sosfiltParallel, sosfiltfiltParallel) against
// the serial recursion on 10M float64, without a stage's verification or fresh result pages (the
// outputs are touched first): wall and processor time, median and least of REPEATS after a warm-up.
// OMP_NUM_THREADS=1 gives the scan's own processor cost, which a machine loaded by others inflates
// least. The order-8 band-pass of siglab-rate-bench and decimate's cheby1 (4 sections).
//
// usage: siglab-scan-bench [SAMPLES] [REPEATS] [WORD]   (WORD: only the cases whose name holds it)
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/iir_design.hpp"
#include "siglab/sos_filter.hpp"

using namespace siglab;

namespace {

double cpuMilliseconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t n = argc > 1 ? std::stoull(argv[1]) : 10'000'000;
  const int repeats = std::max(1, argc > 2 ? std::stoi(argv[2]) : 7);
  const std::string only = argc > 3 ? argv[3] : "";
  std::mt19937_64 rng(1);
  std::normal_distribution<double> noise;
  std::vector<double> x(n), y(n, 0.0);
  for (double& v : x) v = noise(rng);
  const Sections band = butterworthSections({8, 0.1, 0.3, BandType::Bandpass});
  ButterworthSpec low;
  low.order = 8;
  low.cutoff = 0.2;  // decimate 4's cheby1(8, 0.05, 0.8 / 4)
  const Sections cheby = cheby1Sections(low, 0.05);
  std::printf("siglab-scan-bench: %zu float64 samples, median (least) of %d runs after a warm-up\n", n, repeats);
  const auto time = [&](const char* name, auto&& run) {
    if (!only.empty() && std::string(name).find(only) == std::string::npos) return;
    std::vector<double> wall, cpu;
    run();
    for (int r = 0; r < repeats; ++r) {
      const auto start = std::chrono::steady_clock::now();
      const double startCpu = cpuMilliseconds();
      run();
      wall.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
      cpu.push_back(cpuMilliseconds() - startCpu);
    }
    std::sort(wall.begin(), wall.end());
    std::sort(cpu.begin(), cpu.end());
    std::printf("%-34s wall %8.2f ms (%8.2f)  CPU %8.2f ms (%8.2f)\n", name, wall[wall.size() / 2], wall[0],
                cpu[cpu.size() / 2], cpu[0]);
  };
  time("sosfilt serial, order 8 band-pass", [&] { SosState s; sosfilt(band, x, y, s); });
  time("sosfilt scan, order 8 band-pass", [&] { sosfiltParallel(band, x, y, {}); });
  time("sosfiltfilt serial, order 8 band-pass", [&] { sosfiltfilt(band, x, y); });
  time("sosfiltfilt scan, order 8 band-pass", [&] { sosfiltfiltParallel(band, x, y); });
  time("sosfiltfilt serial, decimate's cheby1", [&] { sosfiltfilt(cheby, x, y); });
  time("sosfiltfilt scan, decimate's cheby1", [&] { sosfiltfiltParallel(cheby, x, y); });
  return 0;
}
