// siglab-apply-bench: issue 11's CPU targets, as ratios measured in this run.
//  1. `siglab-cli filter` (engine auto) on a 10M-line text file, end to end (process start, read,
//     filter, verify, write) against the seed program (fscanf, its serial loop, fprintf), with
//     byte-identical result files. Target: at least 6x.
//  2. --verify's cost against the whole apply (read, filter, verify, write) at 10M, W = 5, timed
//     inside one process from the pipeline's own figures. Target: at most 2%.
// Usage: siglab-apply-bench [samples=10000000] [repeats=5] [folder=/tmp]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "seed_program.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/job.hpp"
#include "siglab/measure.hpp"

namespace {

constexpr int kWindow = siglab::bench::kSeedWindow;  // the seed program's window


std::string readAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one.empty() ? "unknown" : one + " " + five + " " + fifteen;
}

void printRow(const char* what, const siglab::TimingStats& t) {
  std::printf("  %-46s median %8.1f ms  (min %8.1f, max %8.1f, %d runs)\n", what, t.medianMs, t.minMs, t.maxMs,
              t.samples);
}

siglab::TimingStats timed(int repeats, const std::function<void()>& work) {
  return siglab::measure([&] { return siglab::timeOnHost(work); }, {1, repeats}).total;
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t samples = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10'000'000;
  const int repeats = argc > 2 ? std::atoi(argv[2]) : 5;
  const std::filesystem::path folder = argc > 3 ? argv[3] : std::filesystem::temp_directory_path();
  const std::string input = (folder / "siglab-apply-bench-input.txt").string();
  const std::string seedOut = (folder / "siglab-apply-bench-seed.txt").string();
  const std::string cliOut = (folder / "siglab-apply-bench-cli.txt").string();
  const std::string pipelineOut = (folder / "siglab-apply-bench-pipeline.txt").string();

  siglab::GenerateOptions generate;
  generate.count = samples;
  siglab::writeSignal(input, siglab::generateSignal(generate));
  std::printf("siglab-apply-bench: %llu samples (%.1f MB of text), W = %d mean, zero boundary, %u hardware threads, "
              "%d timed runs after one warm-up\nload average at start: %s\n",
              static_cast<unsigned long long>(samples), static_cast<double>(std::filesystem::file_size(input)) / 1e6,
              kWindow, std::thread::hardware_concurrency(), repeats, loadAverage().c_str());

  // 1. End to end: the seed program against the real CLI, each writing its result.txt.
  const siglab::TimingStats seed = timed(repeats, [&] { siglab::bench::seedProgram(input, seedOut); });
  const std::string cli = std::string(SIGLAB_CLI_PATH) + " filter " + input + " -o " + cliOut + " 2>/dev/null >/dev/null";
  bool cliOk = true;
  const siglab::TimingStats apply = timed(repeats, [&] { cliOk = cliOk && std::system(cli.c_str()) == 0; });
  const std::string unverifiedCli = std::string(SIGLAB_CLI_PATH) + " filter " + input + " -o " + cliOut +
                                    " --verify 0 2>/dev/null >/dev/null";
  const siglab::TimingStats applyUnverified =
      timed(repeats, [&] { cliOk = cliOk && std::system(unverifiedCli.c_str()) == 0; });
  std::system((std::string(SIGLAB_CLI_PATH) + " filter " + input + " -o " + cliOut + " >/dev/null").c_str());
  const bool sameBytes = cliOk && readAll(seedOut) == readAll(cliOut);
  std::printf("\nend to end, %llu lines of text in, result.txt out\n", static_cast<unsigned long long>(samples));
  printRow("seed program (fscanf, serial loop, fprintf)", seed);
  printRow("siglab-cli filter (auto, --verify default)", apply);
  printRow("siglab-cli filter (auto, --verify 0)", applyUnverified);

  // 2. --verify's share of one apply, in one process, from the pipeline's own figures.
  siglab::Job job;
  job.input = input;
  job.spec = siglab::makeMeanFilter(kWindow);
  siglab::BackendList engines;
  engines.push_back(std::make_unique<siglab::CpuSerialBackend>());
  engines.push_back(std::make_unique<siglab::CpuParallelBackend>());
  engines.push_back(std::make_unique<siglab::CpuRunningBackend>());
  std::vector<double> verifyMs;
  std::string engine;
  std::size_t checked = 0;
  const siglab::TimingStats inProcess = timed(repeats, [&] {
    const siglab::Signal signal = siglab::readSignal(input);
    const siglab::AppliedJob applied = siglab::applyJob(engines, signal.samples, job);
    siglab::writeSignal(pipelineOut, applied.result.output);
    verifyMs.push_back(applied.result.verifyMs);
    engine = applied.result.engine;
    checked = applied.result.verification.checked;
  });
  verifyMs.erase(verifyMs.begin());  // the warm-up's
  const siglab::TimingStats verify = siglab::summarize(verifyMs);
  std::printf("\none apply in one process (readSignal, applyJob with %s, writeSignal)\n", engine.c_str());
  printRow("apply, end to end", inProcess);
  printRow(("of which --verify (" + std::to_string(checked) + " outputs)").c_str(), verify);
  std::printf("\nload average at end: %s\n", loadAverage().c_str());

  const double speedup = seed.medianMs / apply.medianMs;
  const double verifyShare = 100.0 * verify.medianMs / inProcess.medianMs;
  std::printf("\ntargets (measured in this run against threshold)\n");
  std::printf("  %-62s %8.2fx >= 6.00x  %s\n", "siglab-cli filter end to end vs the seed program", speedup,
              speedup >= 6.0 ? "met" : "MISSED");
  std::printf("  %-62s %8s\n", "result.txt byte-identical to the seed program's", sameBytes ? "yes" : "NO");
  std::printf("  %-62s %7.2f%% <= 2.00%%  %s\n", "--verify's share of the apply time (10M, W = 5)", verifyShare,
              verifyShare <= 2.0 ? "met" : "MISSED");
  for (const auto& path : {input, seedOut, cliOut, pipelineOut}) std::filesystem::remove(path);
  return sameBytes ? 0 : 1;
}
