// Issue 25's channel target, measured in this run: a stereo WAV through one stage, both channels in
// one runPipeline, against the two one-channel runs (--channel 1, --channel 2) of the same file, on
// the CPU engines (auto among cpu-serial, cpu-parallel, cpu-running, cpu-fft), in memory and
// streamed. File to file, page cache warm; one warm-up round, then rounds that alternate the three
// runs; medians. Target: stereo <= 1.2 x (channel 1 + channel 2).
// Usage: siglab-channels-bench [--frames N] [--chain "median 5"] [--repeats R] [--folder DIR]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/pipeline_run.hpp"

namespace {

using namespace siglab;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

double runMs(const Pipeline& pipeline, const FileSource& in, const std::string& out, const BackendList& engines,
             Streaming streaming) {
  PipelineOptions options;
  options.streaming = streaming;
  const auto start = std::chrono::steady_clock::now();
  const PipelineReport report = runPipeline(pipeline, in, FileSink{out, {}}, engines, options);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!report.written) {
    std::fprintf(stderr, "a run failed its verification\n");
    std::exit(1);
  }
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t frames = 10'000'000, repeats = 5;
  std::string chain = "median 5", folder = std::filesystem::temp_directory_path().string();
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i], value = argv[i + 1];
    if (flag == "--frames") frames = std::stoull(value);
    else if (flag == "--chain") chain = value;
    else if (flag == "--repeats") repeats = std::stoull(value);
    else if (flag == "--folder") folder = value;
    else {
      std::fprintf(stderr, "usage: siglab-channels-bench [--frames N] [--chain TEXT] [--repeats R] [--folder DIR]\n");
      return 2;
    }
  }
  const std::filesystem::path dir = std::filesystem::path(folder) / ("siglab-channels-bench-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::string in = (dir / "stereo.wav").string(), out = (dir / "out.wav").string();
  {
    std::mt19937_64 rng(25);
    std::normal_distribution<float> noise;
    std::vector<std::vector<double>> planar(2, std::vector<double>(frames));
    for (auto& channel : planar) {
      for (double& v : channel) v = noise(rng);
    }
    writeChannels(in, std::vector<std::span<const double>>(planar.begin(), planar.end()), WriteOptions{FileFormat::wav});
  }
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  engines.push_back(std::make_unique<CpuRunningBackend>());
  engines.push_back(std::make_unique<CpuFftBackend>());
  const Pipeline pipeline = parseChain(chain);
  FileSource stereo{in, {}}, first{in, {}}, second{in, {}};
  first.read.oneChannel = second.read.oneChannel = true;
  second.read.channel = 2;
  std::printf("stereo WAV of %zu frames through \"%s\", CPU engines, %zu rounds after a warm-up (medians, ms)\n", frames,
              chain.c_str(), repeats);
  std::printf("%-8s %12s %12s %12s %14s\n", "run", "stereo", "channel 1", "channel 2", "stereo/(1+2)");
  for (const auto& [name, streaming] : {std::pair{"memory", Streaming::never}, std::pair{"streamed", Streaming::always}}) {
    std::vector<double> both, one, two;
    for (std::size_t round = 0; round <= repeats; ++round) {
      const double b = runMs(pipeline, stereo, out, engines, streaming);
      const double o = runMs(pipeline, first, out, engines, streaming);
      const double t = runMs(pipeline, second, out, engines, streaming);
      if (round == 0) continue;  // warm-up
      both.push_back(b);
      one.push_back(o);
      two.push_back(t);
    }
    const double ratio = median(both) / (median(one) + median(two));
    std::printf("%-8s %12.1f %12.1f %12.1f %13.2fx %s\n", name, median(both), median(one), median(two), ratio,
                ratio <= 1.2 ? "(target <= 1.2x: met)" : "(target <= 1.2x: MISSED)");
  }
  std::filesystem::remove_all(dir);
  return 0;
}
