// Issue 25's target: the chain "butter 4,0.1,0.3,bandpass zero-phase; median 5" over a raw float64
// file in one streamed run (the median reading the Butterworth stage's stream: one pass over the
// input) against the two stages one after the other through an intermediate file (each streamed,
// the same engines), measured in this run: rounds alternate (the first a warm-up), each run a
// child process whose peak resident memory (ru_maxrss) is its own; medians of the timed rounds.
// The two results are compared byte for byte. Files are removed at the end.
// Usage: siglab-sections-chain-bench [--folder DIR] [--samples N] [--repeats R]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/pipeline_run.hpp"

namespace {

using namespace siglab;

constexpr const char* kChain = "butter 4,0.1,0.3,bandpass zero-phase; median 5";

struct ChildRun {
  double ms = 0.0;
  double peakMiB = 0.0;
  bool ok = false;
};

ChildRun inChild(const std::function<void()>& work) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    try {
      work();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child failed: %s\n", e.what());
      ::_exit(1);
    }
    ::_exit(0);
  }
  int status = 0;
  rusage usage{};
  ::wait4(pid, &status, 0, &usage);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return {ms, static_cast<double>(usage.ru_maxrss) / 1024.0, WIFEXITED(status) && WEXITSTATUS(status) == 0};
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void writeRandom(const std::string& path, std::uint64_t count) {
  WriteOptions raw;
  raw.format = FileFormat::raw;
  const auto sink = openSampleSink(path, raw, count);
  std::mt19937_64 rng(1);
  std::normal_distribution<double> noise(0.0, 0.25);
  std::vector<double> block(1 << 20);
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = std::sin(static_cast<double>(i) * 0.00314) + noise(rng);
  for (std::uint64_t done = 0; done < count; done += block.size()) {
    sink->write(std::span<const double>(block).first(static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), count - done))));
  }
  sink->commit();
}

void run(const std::string& chain, const std::string& in, const std::string& out, std::vector<std::string> engineNames) {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  FileSource source{in, {}};
  source.read.rawType = SampleType::f64;
  WriteOptions raw;
  raw.format = FileFormat::raw;
  PipelineOptions options;
  options.streaming = Streaming::always;
  options.engines = std::move(engineNames);
  const PipelineReport report = runPipeline(parseChain(chain), source, FileSink{out, raw}, engines, options);
  if (!report.written) throw std::runtime_error(chain + ": not written");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The Butterworth zero-phase + median chain streamed in one pass against two runs through a file"};
  std::string folder = "/var/tmp";
  std::uint64_t samples = 100'000'000;
  int repeats = 3;
  app.add_option("--folder", folder, "where the files go");
  app.add_option("--samples", samples, "samples in the raw float64 input");
  app.add_option("--repeats", repeats, "timed rounds after one warm-up")->check(CLI::Range(1, 100));
  CLI11_PARSE(app, argc, argv);

  const std::string dir = folder + "/siglab-sections-chain-bench-" + std::to_string(::getpid());
  std::filesystem::create_directories(dir);
  const std::string in = dir + "/in.raw", chained = dir + "/chain.raw", mid = dir + "/mid.raw", twice = dir + "/two.raw";
  writeRandom(in, samples);
  std::printf("%s over %llu float64 samples (%.2f GB raw), %d timed rounds after a warm-up\n", kChain,
              static_cast<unsigned long long>(samples), static_cast<double>(samples) * 8e-9, repeats);
  const std::vector<std::function<void()>> contenders = {
      [&] { run(kChain, in, chained, {}); },
      [&] {
        run("butter 4,0.1,0.3,bandpass zero-phase", in, mid, {"cpu-serial"});
        run("median 5", mid, twice, {});
      },
  };
  std::vector<std::vector<double>> wall(contenders.size());
  std::vector<ChildRun> worst(contenders.size(), ChildRun{0, 0, true});
  for (int round = 0; round <= repeats; ++round) {
    for (std::size_t k = 0; k < contenders.size(); ++k) {
      for (const std::string& f : k == 0 ? std::vector<std::string>{chained} : std::vector<std::string>{mid, twice}) {
        std::filesystem::remove(f);  // this contender's own old outputs, untimed
      }
      const ChildRun r = inChild(contenders[k]);
      worst[k].ok = worst[k].ok && r.ok;
      worst[k].peakMiB = std::max(worst[k].peakMiB, r.peakMiB);
      if (round > 0) wall[k].push_back(r.ms);
    }
  }
  // The last round's outputs are still there: the chain's and the two runs' results.
  const bool same = std::system(("cmp -s '" + chained + "' '" + twice + "'").c_str()) == 0;
  const double streamed = median(wall[0]), twoRuns = median(wall[1]);
  std::printf("  one streamed run (one pass)        %9.0f ms  peak RSS %7.1f MiB%s\n", streamed, worst[0].peakMiB,
              worst[0].ok ? "" : "  FAILED");
  std::printf("  two runs through an intermediate   %9.0f ms  peak RSS %7.1f MiB%s\n", twoRuns, worst[1].peakMiB,
              worst[1].ok ? "" : "  FAILED");
  std::printf("  speed ratio (two runs / streamed)  %9.2fx  (target >= 0.9x; RSS target <= 256 MiB)\n", twoRuns / streamed);
  std::printf("  results byte-identical: %s\n", same ? "yes" : "NO");
  std::filesystem::remove_all(dir);
  return worst[0].ok && worst[1].ok && same ? 0 : 1;
}
