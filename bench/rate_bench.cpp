// siglab-rate-bench: the rate-changing stages (resample-poly, upfirdn, decimate), sosfilt and
// sosfiltfilt, envelope and correlate against SciPy (bench/scipy_rate_timing.py) on the same 10M
// float64 samples, in the same run: SciPy's wall and processor time, then SigLab's default engine's
// (what a user gets without --engine) and their ratios, then cpu-serial's and cpu-parallel's wall
// times. Processor time is what a machine loaded by others inflates least. One command, with the
// load noted: scripts/bench-cpu-stages.sh.
//
// usage: siglab-rate-bench [SAMPLES] [REPEATS] [WORD]   (WORD: only the cases whose chain holds it)
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdlib>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"

using namespace siglab;

namespace {

double medianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// This process's processor time (every thread's), in ms.
double cpuMilliseconds() {
  timespec t{};
  ::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

// SciPy's median time on `name`, timed just before SigLab's on the same case: on a machine others
// load, the two measurements then see about the same load. With its median CPU time under name + " cpu".
std::map<std::string, double> scipyTimes(const std::string& path, int repeats, const std::string& name) {
  std::map<std::string, double> times;
  const std::string command = "/usr/bin/python3 " SIGLAB_BENCH_DIR "/scipy_rate_timing.py " + path + " " +
                              std::to_string(repeats) + " '" + name + "'";
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char line[256];
    while (std::fgets(line, sizeof(line), pipe)) {
      const std::string text(line);
      const auto bar = text.find('|');
      if (bar == std::string::npos) continue;
      times[text.substr(0, bar)] = std::stod(text.substr(bar + 1));
      times[text.substr(0, bar) + " cpu"] = std::stod(text.substr(text.rfind('|') + 1));
    }
    ::pclose(pipe);
  }
  return times;
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t samples = argc > 1 ? std::stoull(argv[1]) : 10'000'000;
  const int repeats = argc > 2 ? std::stoi(argv[2]) : 3;
  std::mt19937_64 rng(1);
  std::normal_distribution<double> noise;
  std::vector<double> x(samples);
  for (double& v : x) v = noise(rng);
  const std::string dir = "/tmp/siglab-rate-bench-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/x.f64";
  WriteOptions raw;
  raw.format = FileFormat::raw;
  writeSignal(path, x, raw);
  // firwin(31, 0.3), as the SciPy script designs it, for upfirdn's taps file.
  writeSignal(dir + "/taps.txt", [] {
    std::vector<double> h(31);
    double sum = 0;
    for (int i = 0; i < 31; ++i) {
      const double m = i - 15.0, y = 3.141592653589793 * 0.3 * (m == 0 ? 1e-20 : m);
      h[static_cast<std::size_t>(i)] = 0.3 * std::sin(y) / y * (0.54 - 0.46 * std::cos(2 * 3.141592653589793 * i / 30));
      sum += h[static_cast<std::size_t>(i)];
    }
    for (double& v : h) v /= sum;
    return h;
  }());
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  // The CuPy figure's order-8 band-pass as sections (SciPy designs it), and a 64-value template.
  const std::string sections = dir + "/sos.txt", tmpl = dir + "/template.txt";
  const std::string design = "/usr/bin/python3 -c \"import numpy as np, scipy.signal as s; np.savetxt('" + sections +
                             "', s.butter(8, [0.1, 0.3], 'bandpass', output='sos')); np.savetxt('" + tmpl +
                             "', np.sin(np.arange(64) / 3.0))\"";
  if (std::system(design.c_str()) != 0) std::printf("  (no SciPy to design the sections: those cases fail)\n");
  const std::vector<std::string> cases = {"resample-poly 3,2", "upfirdn " + dir + "/taps.txt,3,2", "decimate 4 ftype fir",
                                          "decimate 4", "decimate 4 zero-phase=off", "sosfilt " + sections,
                                          "sosfiltfilt " + sections, "envelope", "correlate " + tmpl + ",mode=same"};
  std::printf("siglab-rate-bench: %zu float64 samples, median of %d runs after a warm-up, each stage verified; SciPy timed "
              "just before SigLab on the same case. wall: elapsed ms; CPU: this process's processor time (every thread's)\n",
              samples, repeats);
  std::printf("%-22s %10s %10s | %-13s %10s %10s %8s %8s | %10s %8s | %10s %8s\n", "stage", "scipy wall", "scipy CPU",
              "default", "wall", "CPU", "wall x", "CPU x", "cpu-serial", "x", "cpu-par", "x");
  bool allMet = true;
  for (const std::string& chain : cases) {
    if (argc > 3 && chain.find(argv[3]) == std::string::npos) continue;
    const std::string name = chain.rfind("upfirdn", 0) == 0       ? "upfirdn 31 taps,3,2"
                             : chain.rfind("sosfiltfilt", 0) == 0 ? "sosfiltfilt order 8"
                             : chain.rfind("sosfilt", 0) == 0     ? "sosfilt order 8"
                             : chain.rfind("correlate", 0) == 0   ? "correlate 64 same"
                                                                  : chain;
    const std::map<std::string, double> scipy = scipyTimes(path, repeats, name);
    const Pipeline pipeline = parseChain(chain);
    const auto stage = bindStage(pipeline.stages[0], 1, StageContext{samples, std::nullopt, Accumulator::SampleType});
    std::map<std::string, double> ms, cpu;
    std::string defaultEngine;
    // The engines take turns, a round each (a warm-up round first), so that no engine is measured
    // in a stretch of its own: a whole engine's runs back to back had differed by up to 1.6x with
    // which one came first.
    const std::array<std::string, 3> order = {"auto", "cpu-serial", "cpu-parallel"};
    std::map<std::string, std::vector<double>> times, cpuTimes;
    for (int r = 0; r <= repeats; ++r) {
      for (const std::string& engine : order) {
        StageRunOptions options;
        options.engine = engine;
        const auto start = std::chrono::steady_clock::now();
        const double startCpu = cpuMilliseconds();
        const AppliedJob applied = stage->apply(engines, x, options);
        const double elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (!applied.result.verification.passed()) std::printf("  %s on %s FAILED verification\n", chain.c_str(), engine.c_str());
        if (engine == "auto") defaultEngine = applied.result.engine;
        if (r > 0) times[engine].push_back(elapsed);
        if (r > 0) cpuTimes[engine].push_back(cpuMilliseconds() - startCpu);
      }
    }
    for (const std::string& engine : order) {
      ms[engine] = medianOf(times[engine]);
      cpu[engine] = medianOf(cpuTimes[engine]);
    }
    const auto found = scipy.find(name), foundCpu = scipy.find(name + " cpu");
    const double reference = found == scipy.end() ? 0.0 : found->second;
    const double referenceCpu = foundCpu == scipy.end() ? 0.0 : foundCpu->second;
    const auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
    const double wallRatio = ratio(reference, ms["auto"]);
    allMet = allMet && wallRatio >= 3.0;
    std::printf("%-22s %7.1f ms %7.1f ms | %-13s %7.1f ms %7.1f ms %7.2fx %7.2fx | %7.1f ms %7.2fx | %7.1f ms %7.2fx%s\n",
                name.c_str(), reference, referenceCpu, defaultEngine.c_str(), ms["auto"], cpu["auto"], wallRatio,
                ratio(referenceCpu, cpu["auto"]), ms["cpu-serial"], ratio(reference, ms["cpu-serial"]), ms["cpu-parallel"],
                ratio(reference, ms["cpu-parallel"]), wallRatio >= 3.0 ? "" : "  (below 3x)");
    std::fflush(stdout);
  }
  std::printf("target (issue 27): default engine's wall time at least 3x faster than SciPy's: %s\n", allMet ? "MET" : "NOT MET");
  std::filesystem::remove_all(dir);
  return 0;
}
