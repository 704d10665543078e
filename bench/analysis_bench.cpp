// siglab-analysis-bench: the analysis stages (spectrogram nperseg 1024, find-peaks height=3) on
// 10M float64 samples in memory into their files, against SciPy (bench/scipy_analysis_timing.py)
// on the same samples in the same run; ratios printed. With --streamed N: siglab-cli's spectrogram
// streamed from an N-sample raw file, its peak resident memory (the 256 MiB target).
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/pipeline_run.hpp"

namespace {

using namespace siglab;
namespace fs = std::filesystem;

double bestMs(int repeats, const std::function<void()>& work) {
  work();  // warm-up, as the SciPy side
  double best = 1e300;
  for (int r = 0; r < repeats; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return best;
}

std::map<std::string, double> scipyTimes(const std::string& signal, const std::string& dir, int repeats) {
  const std::string command = std::string("/usr/bin/python3 ") + SIGLAB_SCIPY_ANALYSIS_SCRIPT + " " + signal + " " + dir +
                              " " + std::to_string(repeats);
  std::map<std::string, double> times;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return times;
  char line[256];
  while (fgets(line, sizeof line, pipe)) {
    std::istringstream in(line);
    std::string name;
    double median = 0, low = 0;
    in >> name >> median >> low;
    times[name] = low;
  }
  pclose(pipe);
  return times;
}

// siglab-cli's peak resident memory (MiB) for a streamed spectrogram of an N-sample raw file.
void streamedMemory(std::uint64_t samples, const std::string& dir) {
  const std::string raw = dir + "/big.f64";
  {
    std::ofstream out(raw, std::ios::binary);
    std::mt19937_64 rng(3);
    std::normal_distribution<double> normal;
    std::vector<double> block(1 << 20);
    for (std::uint64_t done = 0; done < samples; done += block.size()) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), samples - done));
      for (std::size_t i = 0; i < n; ++i) block[i] = normal(rng);
      out.write(reinterpret_cast<const char*>(block.data()), static_cast<std::streamsize>(n * sizeof(double)));
    }
  }
  const std::string command = std::string(SIGLAB_CLI_PATH) + " filter " + raw + " -q -o " + dir +
                              "/big-spec.npy --stream always --chain \"spectrogram nperseg=1024\"";
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  std::cout << "streamed spectrogram nperseg=1024 of " << samples << " samples (raw f64 file, " << samples * 8 / (1 << 20)
            << " MiB in, " << fs::file_size(dir + "/big-spec.npy") / (1 << 20) << " MiB out): exit "
            << WEXITSTATUS(status) << ", " << seconds << " s, peak resident " << usage.ru_maxrss / 1024 << " MiB\n";
  fs::remove(raw);
  fs::remove(dir + "/big-spec.npy");
}

}  // namespace

int main(int argc, char** argv) {
  std::uint64_t streamed = 0;
  for (int i = 1; i + 1 < argc; ++i) {
    if (std::string(argv[i]) == "--streamed") streamed = std::stoull(argv[i + 1]);
  }
  const std::string dir = fs::temp_directory_path() / ("siglab-analysis-bench-" + std::to_string(getpid()));
  fs::create_directories(dir);
  if (streamed > 0) {
    streamedMemory(streamed, dir);
    fs::remove_all(dir);
    return 0;
  }
  constexpr std::size_t kSamples = 10'000'000;
  constexpr int kRepeats = 3;
  std::vector<double> x(kSamples);
  std::mt19937_64 rng(1);
  std::normal_distribution<double> normal;
  for (double& v : x) v = normal(rng);
  const std::string signal = dir + "/x.f64";
  std::ofstream(signal, std::ios::binary).write(reinterpret_cast<const char*>(x.data()), kSamples * sizeof(double));

  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  ChannelSource source;
  source.channels = {x};
  const auto run = [&](const std::string& chain, const std::string& out, const std::string& engine) {
    PipelineOptions options;
    options.engines = {engine};
    return bestMs(kRepeats, [&] { runPipeline(parseChain(chain), source, FileSink{dir + "/" + out, {}}, engines, options); });
  };
  std::cout << "siglab-analysis-bench: 10M float64 samples (standard normal), best of " << kRepeats
            << "; SigLab in memory into its file (.npy / .csv), SciPy " << "1.10 from an array (compute, and compute + save)\n";
  const std::map<std::string, double> scipy = scipyTimes(signal, dir, kRepeats);
  const struct {
    std::string chain, out, scipyName;
  } cases[] = {{"spectrogram nperseg=1024", "spec.npy", "spectrogram"}, {"find-peaks height=3", "peaks.csv", "find_peaks"}};
  for (const auto& c : cases) {
    const double serial = run(c.chain, c.out, "cpu-serial");
    const double parallel = run(c.chain, c.out, "cpu-parallel");
    const double compute = scipy.count(c.scipyName) ? scipy.at(c.scipyName) : 0;
    const double saved = scipy.count(c.scipyName + "+save") ? scipy.at(c.scipyName + "+save") : 0;
    std::printf("%-26s cpu-serial %8.1f ms  cpu-parallel %8.1f ms | scipy %8.1f ms (+save %8.1f ms) | "
                "ratio scipy/parallel: %.2fx compute only, %.2fx both saving\n",
                c.chain.c_str(), serial, parallel, compute, saved, compute / parallel, saved / parallel);
  }
  fs::remove_all(dir);
  return 0;
}
