// Resident memory of SigLab's load → filter → drop cycle, and the peak of `siglab-cli filter`.
// (a) In this process: load a seed-format text signal, filter it on cpu-serial and drop both, 20
//     times; prints the resident set after each cycle and its growth from cycle 1 to the last (flat
//     means nothing leaks or piles up across reloads).
// (b) In a child process: `siglab-cli filter` on the same file; prints its peak resident set
//     (wait4's ru_maxrss) against 4x the signal's size in bytes.
// Usage: siglab-memory-bench [samples=10000000] [cycles=20] [folder=/tmp]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "siglab/cpu_serial.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

double residentMiB() {
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) / kMiB;
}

// Runs `argv` as a child process; returns its peak resident set in MiB, or -1 if it failed.
double childPeakMiB(const std::vector<std::string>& argv) {
  std::fflush(stdout);  // or the child would print what is still buffered here a second time
  const pid_t pid = ::fork();
  if (pid < 0) return -1.0;
  if (pid == 0) {
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    if (!std::freopen("/dev/null", "w", stdout)) ::_exit(126);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  int status = 0;
  rusage usage{};
  if (::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) return -1.0;
  return static_cast<double>(usage.ru_maxrss) * 1024.0 / kMiB;  // ru_maxrss is in KiB on Linux
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t samples = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const int cycles = argc > 2 ? std::atoi(argv[2]) : 20;
  const std::filesystem::path folder = argc > 3 ? argv[3] : "/tmp";
  const std::string input = (folder / "siglab-memory-bench-in.txt").string();
  const std::string output = (folder / "siglab-memory-bench-out.txt").string();
  const double signalMiB = static_cast<double>(samples * sizeof(double)) / kMiB;
  {
    siglab::GenerateOptions generate;
    generate.count = samples;
    siglab::writeSignal(input, siglab::generateSignal(generate));
  }
  std::printf("siglab-memory-bench: %zu samples (%.1f MiB as doubles), text file %.1f MiB\n", samples, signalMiB,
              static_cast<double>(std::filesystem::file_size(input)) / kMiB);

  std::printf("\n(a) load, filter on cpu-serial (W=9), drop; %d cycles in one process\n", cycles);
  std::printf("    resident before the first cycle: %.1f MiB\n", residentMiB());
  const siglab::FilterSpec spec = siglab::makeMeanFilter(9, siglab::BoundaryMode::Zero);
  double first = 0.0, last = 0.0;
  for (int cycle = 1; cycle <= cycles; ++cycle) {
    {
      const siglab::Signal signal = siglab::readSignal(input);
      std::vector<double> filtered(signal.samples.size());
      siglab::filterSerial(signal.samples, spec, filtered);
      if (filtered.size() != samples) std::printf("    wrong sample count %zu\n", filtered.size());
    }
    last = residentMiB();
    if (cycle == 1) first = last;
    std::printf("    after cycle %2d: resident %.1f MiB\n", cycle, last);
  }
  std::printf("    growth from cycle 1 to cycle %d: %+.1f MiB (%+.2f MiB a cycle)\n", cycles, last - first,
              cycles > 1 ? (last - first) / (cycles - 1) : 0.0);
  rusage self{};
  ::getrusage(RUSAGE_SELF, &self);
  std::printf("    peak resident during the cycles: %.1f MiB\n", static_cast<double>(self.ru_maxrss) * 1024.0 / kMiB);

  std::printf("\n(b) siglab-cli filter -b cpu-serial -w 9 -r 1 as a child process\n");
  const double peak = childPeakMiB({SIGLAB_CLI_PATH, "filter", input, "-o", output, "-b", "cpu-serial", "-w", "9", "-r", "1"});
  std::filesystem::remove(input);
  std::filesystem::remove(output);
  if (peak < 0) {
    std::printf("    siglab-cli filter failed\n");
    return 1;
  }
  std::printf("    peak resident: %.1f MiB = %.2fx the signal (%.1f MiB); limit 4x = %.1f MiB: %s\n", peak,
              peak / signalMiB, signalMiB, 4 * signalMiB, peak <= 4 * signalMiB ? "within" : "OVER");
  return peak <= 4 * signalMiB ? 0 : 2;
}
