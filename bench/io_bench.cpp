// Times loading and exporting a large seed-format text file: the seed's fscanf/fprintf loops
// against SigLab's readSignal/writeSignal, in the same run, and checks that both give the same
// samples and the same bytes. Ratios compare median wall times.
// Usage: siglab-io-bench [samples=10000000] [repeats=5] [folder=/tmp]
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/timing.hpp"

namespace {

// The seed's reader: fscanf one value at a time into a growing vector.
std::vector<double> seedRead(const std::string& path) {
  std::vector<double> values;
  FILE* file = std::fopen(path.c_str(), "r");
  if (!file) throw std::runtime_error("cannot open " + path);
  double v = 0.0;
  while (std::fscanf(file, "%lf", &v) == 1) values.push_back(v);
  std::fclose(file);
  return values;
}

// The seed's writer: fprintf("%2.16f\n") per value.
void seedWrite(const std::string& path, const std::vector<double>& values) {
  FILE* file = std::fopen(path.c_str(), "w");
  if (!file) throw std::runtime_error("cannot open " + path);
  for (double v : values) std::fprintf(file, "%2.16f\n", v);
  std::fclose(file);
}

// CPU time of the whole process (all threads, user and kernel), in milliseconds.
double processCpuMs() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  auto ms = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

struct Timing {
  siglab::TimingStats wall;
  double cpuMsPerRun = 0.0;  // mean; other processes on the machine inflate wall time much more than this
};

// One warm-up, then the median of `repeats` runs, in milliseconds.
Timing timeIt(int repeats, const std::function<void()>& run) {
  run();
  std::vector<double> millis;
  const double cpuStart = processCpuMs();
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    run();
    millis.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return {siglab::summarize(millis), (processCpuMs() - cpuStart) / repeats};
}

std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Other work on the machine slows both sides; the load average says how much there was.
std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one.empty() ? "unknown" : one + " " + five + " " + fifteen;
}

void printRow(const char* what, const Timing& t) {
  std::printf("  %-36s median %8.1f ms  (min %8.1f, max %8.1f, %d runs)  CPU %8.1f ms a run\n", what,
              t.wall.medianMs, t.wall.minMs, t.wall.maxMs, t.wall.samples, t.cpuMsPerRun);
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t samples = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::filesystem::path folder = argc > 3 ? argv[3] : std::filesystem::temp_directory_path();
  const std::string input = (folder / "siglab-io-bench-input.txt").string();
  const std::string seedOut = (folder / "siglab-io-bench-seed.txt").string();
  const std::string siglabOut = (folder / "siglab-io-bench-siglab.txt").string();

  siglab::GenerateOptions generate;
  generate.count = samples;
  siglab::writeSignal(input, siglab::generateSignal(generate));
  std::printf("siglab-io-bench: %llu samples (%.1f MB of text), %u hardware threads, %d timed runs after one warm-up\n"
              "load average at start: %s\n",
              static_cast<unsigned long long>(samples), static_cast<double>(std::filesystem::file_size(input)) / 1e6,
              std::thread::hardware_concurrency(), repeats, loadAverage().c_str());

  std::vector<double> seedValues;
  siglab::SampleVector siglabValues;
  const auto seedLoad = timeIt(repeats, [&] { seedValues = seedRead(input); });
  const auto siglabLoad = timeIt(repeats, [&] { siglabValues = siglab::readSignal(input).samples; });
  const bool sameValues = seedValues == siglabValues && seedValues.size() == samples;

  const auto seedSave = timeIt(repeats, [&] { seedWrite(seedOut, seedValues); });
  siglab::WriteOptions buffered;
  buffered.durability = siglab::Durability::buffered;
  const auto siglabSaveBuffered = timeIt(repeats, [&] { siglab::writeSignal(siglabOut, siglabValues, buffered); });
  bool sameBytes = readAll(seedOut) == readAll(siglabOut);
  const auto siglabSave = timeIt(repeats, [&] { siglab::writeSignal(siglabOut, siglabValues); });
  sameBytes = sameBytes && readAll(seedOut) == readAll(siglabOut);

  std::printf("\nload (page cache warm)\n");
  printRow("seed fscanf(\"%lf\")", seedLoad);
  printRow("SigLab readSignal", siglabLoad);
  std::printf("  speedup %.1fx; same samples bit for bit: %s\n", seedLoad.wall.medianMs / siglabLoad.wall.medianMs,
              sameValues ? "yes" : "NO");
  std::printf("\nexport\n");
  printRow("seed fprintf(\"%2.16f\\n\")", seedSave);
  printRow("SigLab writeSignal (no fsync)", siglabSaveBuffered);
  printRow("SigLab writeSignal (fsync, default)", siglabSave);
  std::printf("  speedup %.1fx without fsync (as fprintf), %.1fx with; same bytes: %s\n",
              seedSave.wall.medianMs / siglabSaveBuffered.wall.medianMs, seedSave.wall.medianMs / siglabSave.wall.medianMs,
              sameBytes ? "yes" : "NO");

  std::printf("\nload average at end: %s\n", loadAverage().c_str());
  for (const auto& path : {input, seedOut, siglabOut}) std::filesystem::remove(path);
  return sameValues && sameBytes ? 0 : 1;
}
