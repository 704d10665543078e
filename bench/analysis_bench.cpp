// siglab-analysis-bench: the analysis stages (spectrogram nperseg 1024, find-peaks height=3) on
// 10M float64 samples in memory into their files, against SciPy (bench/scipy_analysis_timing.py)
// on the same samples in the same run; ratios printed. With --streamed N: siglab-cli's spectrogram
// streamed from an N-sample raw file, its peak resident memory (the 256 MiB target).
#include <sys/resource.h>
#include <sys/wait.h>

#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
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

// Best wall and CPU (every thread's, user + system) milliseconds of `repeats` runs after a warm-up.
struct Times {
  double wall = 1e300;
  double cpu = 1e300;
};

double cpuMs() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return (static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1e3 +
          static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e3);
}

Times best(int repeats, const std::function<void()>& work) {
  work();  // warm-up, as the SciPy side
  Times t;
  for (int r = 0; r < repeats; ++r) {
    const double cpu = cpuMs();
    const auto start = std::chrono::steady_clock::now();
    work();
    t.wall = std::min(t.wall, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    t.cpu = std::min(t.cpu, cpuMs() - cpu);
  }
  return t;
}

std::map<std::string, Times> scipyTimes(const std::string& signal, const std::string& dir, int repeats) {
  const std::string command = std::string("/usr/bin/python3 ") + SIGLAB_SCIPY_ANALYSIS_SCRIPT + " " + signal + " " + dir +
                              " " + std::to_string(repeats);
  std::map<std::string, Times> times;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return times;
  char line[256];
  while (fgets(line, sizeof line, pipe)) {
    std::istringstream in(line);
    std::string name;
    Times t;
    in >> name >> t.wall >> t.cpu;
    times[name] = t;
  }
  pclose(pipe);
  return times;
}

// siglab-cli's peak resident memory (MiB) for a streamed spectrogram of an N-sample raw file.
void streamedMemory(std::uint64_t samples, const std::string& dir) {
  const std::string raw = dir + "/big.raw";
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
  const std::string command = std::string(SIGLAB_CLI_PATH) + " filter " + raw + " --raw f64 -q -o " + dir +
                              "/big-spec.npy --stream always --chain \"spectrogram nperseg=1024\"";
  const auto start = std::chrono::steady_clock::now();
  const int status = std::system(command.c_str());
  if (!fs::exists(dir + "/big-spec.npy")) {
    std::cout << "siglab-cli failed (exit " << WEXITSTATUS(status) << ")\n";
    return;
  }
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
  // Outputs on tmpfs where there is one (/dev/shm): the file's fsync is then no disk's write time,
  // which on a machine whose disk others load would swamp the computation (SciPy's np.save does not sync).
  const char* base = std::getenv("SIGLAB_BENCH_DIR");
  const fs::path root = base ? fs::path(base) : fs::exists("/dev/shm") ? fs::path("/dev/shm") : fs::temp_directory_path();
  const std::string dir = root / ("siglab-analysis-bench-" + std::to_string(getpid()));
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
    return best(kRepeats, [&] { runPipeline(parseChain(chain), source, FileSink{dir + "/" + out, {}}, engines, options); });
  };
  std::cout << "siglab-analysis-bench: 10M float64 samples (standard normal), best of " << kRepeats
            << "; SigLab in memory into its file (.npy / .csv) in " << root.string()
            << ", SciPy 1.10 from an array, computing and saving there (np.save, np.savetxt); wall and CPU (user + "
               "system, every thread) ms\n";
  const std::map<std::string, Times> scipy = scipyTimes(signal, dir, kRepeats);
  const struct {
    std::string chain, out, scipyName;
  } cases[] = {{"spectrogram nperseg=1024", "spec.npy", "spectrogram+save"}, {"find-peaks height=3", "peaks.csv", "find_peaks+save"}};
  for (const auto& c : cases) {
    const Times serial = run(c.chain, c.out, "cpu-serial");
    const Times parallel = run(c.chain, c.out, "cpu-parallel");
    const Times theirs = scipy.count(c.scipyName) ? scipy.at(c.scipyName) : Times{};
    std::printf("%-25s cpu-serial %7.1f ms (cpu %7.1f) | cpu-parallel %7.1f ms (cpu %7.1f) | scipy %7.1f ms (cpu %7.1f)\n"
                "%-25s scipy / SigLab: wall %.2fx (parallel), %.2fx (serial); CPU time %.2fx (serial)\n",
                c.chain.c_str(), serial.wall, serial.cpu, parallel.wall, parallel.cpu, theirs.wall, theirs.cpu, "",
                theirs.wall / parallel.wall, theirs.wall / serial.wall, theirs.cpu / serial.cpu);
  }
  fs::remove_all(dir);
  return 0;
}
