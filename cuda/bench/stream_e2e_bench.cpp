// siglab-stream-e2e-bench: issue 27's end-to-end target for hilbert and envelope on gpu-fft, in one
// process: a raw float64 file streamed through the stage into a .npy (runPipeline, --stream always,
// the CLI's path without its start-up), against reading the same file with the same reader (the
// raw sample stream the streamed run opens, in the run's blocks of 2^19 samples, into nothing),
// the page cache warm (the file read once before), and cold (the file's own pages dropped before
// each such run: fdatasync, then posix_fadvise DONTNEED on it, nothing else). Where the time goes, each
// phase alone: the read, the overlapped blocks' GPU transforms (event timers: copies and FFTs),
// and the writes of the two output columns (fwrite of the same bytes in the same pieces).
// Each case's median of --repeat runs, taking turns a round each.
//
//   siglab-stream-e2e-bench FILE.f64 OUTPUT_FOLDER [--repeat N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "siglab/analytic_signal.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/pipeline_run.hpp"

namespace siglab {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

ReadOptions rawFloat64() {
  ReadOptions read;
  read.rawType = SampleType::f64;
  return read;
}

constexpr std::size_t kBlock = std::size_t{1} << 19;  // PipelineOptions::blockSamples' default

// The file through the streamed run's reader into nothing; returns the samples read.
std::uint64_t readAll(const std::string& path) {
  const std::unique_ptr<SampleStream> in = openSampleStream(path, rawFloat64());
  std::vector<double> block(kBlock);
  std::uint64_t total = 0;
  while (const std::size_t n = in->read(block)) total += n;
  return total;
}

// The file's pages out of the page cache (this file's alone): its next read comes from the disk.
void dropCached(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY);
  if (fd < 0) return;
  fdatasync(fd);
  posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  close(fd);
}

BackendList engines() {
  BackendList list;
  list.push_back(std::make_unique<CpuSerialBackend>());
  list.push_back(std::make_unique<CpuParallelBackend>());
  list.push_back(makeCudaFftBackend());
  return list;
}

int run(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: siglab-stream-e2e-bench FILE.f64 OUTPUT_FOLDER [--repeat N]\n");
    return 2;
  }
  const std::string path = argv[1], folder = argv[2];
  const int repeat = argc >= 5 && std::string(argv[3]) == "--repeat" ? std::max(1, std::atoi(argv[4])) : 3;
  const BackendList list = engines();
  if (!list.back()->whyNotHilbert().empty()) {
    std::fprintf(stderr, "gpu-fft cannot run here: %s\n", list.back()->whyNotHilbert().c_str());
    return 1;
  }
  const std::uint64_t samples = readAll(path);  // the page cache warm from here on
  const double megabytes = static_cast<double>(samples) * 8 / 1e6;

  struct Case {
    Case(std::string caseLabel, std::string caseChain, std::string caseOutput, bool fromDisk = false)
        : label(std::move(caseLabel)), chain(std::move(caseChain)), output(std::move(caseOutput)), cold(fromDisk) {}
    std::string label, chain, output;  // no chain: the read alone
    bool cold;
    std::vector<double> ms;
    std::string plan, engine;
  };
  std::vector<Case> cases = {{"read (same reader, into nothing)", "", ""},
                             {"hilbert on gpu-fft, streamed, to .npy (re, im)", "hilbert", "h.npy"},
                             {"envelope on gpu-fft, to .npy", "envelope", "e.npy"},
                             {"cold: read (same reader, into nothing)", "", "", true},
                             {"cold: hilbert on gpu-fft, streamed, to .npy", "hilbert", "h.npy", true}};
  for (int r = 0; r < repeat; ++r) {
    for (Case& c : cases) {
      if (c.cold) dropCached(path);
      else readAll(path);  // warm again after a cold case
      const auto start = Clock::now();
      if (c.chain.empty()) {
        readAll(path);
        c.ms.push_back(msSince(start));
        continue;
      }
      PipelineOptions options;
      options.streaming = Streaming::always;
      options.engines = {"gpu-fft"};
      const std::string out = folder + "/" + c.output;
      const PipelineReport report = runPipeline(parseChain(c.chain), FileSource{path, rawFloat64()}, FileSink{out, {}},
                                                list, options);
      c.ms.push_back(msSince(start));
      c.plan = report.plan.why;
      c.engine = report.channels.empty() || report.channels[0].stages.empty() ? "?" : report.channels[0].stages.back().engine;
      if (!report.written) {
        std::fprintf(stderr, "%s: nothing written\n", c.label.c_str());
        return 1;
      }
      std::filesystem::remove(out);
    }
  }
  const double readMs = median(cases[0].ms), coldReadMs = median(cases[3].ms);
  std::printf("%llu float64 samples (%.0f MB) from %s; warm: the file read just before; cold: its pages dropped "
              "just before; median of %d, the cases taking turns a round each\n",
              static_cast<unsigned long long>(samples), megabytes, path.c_str(), repeat);
  for (const Case& c : cases) {
    const double read = c.cold ? coldReadMs : readMs;
    std::printf("  %-48s %9.1f ms  %5.2fx %s read  %s%s\n", c.label.c_str(), median(c.ms), median(c.ms) / read,
                c.cold ? "cold" : "warm", c.engine.c_str(), c.plan.empty() ? "" : ("  (" + c.plan.substr(0, 70) + ")").c_str());
  }

  // Where the time goes: each phase of the streamed hilbert alone.
  std::vector<double> x(samples);
  {
    const std::unique_ptr<SampleStream> in = openSampleStream(path, rawFloat64());
    in->read(x);
  }
  const AnalyticBlocks sizes{};
  FilterBackend& gpu = *list.back();
  std::vector<double> im(sizes.block + 2 * sizes.halo);
  double copiesMs = 0, kernelMs = 0, blocks = 0;
  const auto transformStart = Clock::now();
  for (std::uint64_t next = 0; next < samples; next += sizes.block) {
    const std::uint64_t from = next >= sizes.halo ? next - sizes.halo : 0;
    const std::uint64_t to = std::min<std::uint64_t>(samples, next + sizes.block + sizes.halo);
    const std::span<const double> window(x.data() + from, to - from);
    const FilterPass pass = gpu.hilbert(window, std::span(im).first(window.size()), false, {});
    copiesMs += pass.phases.transferMs;
    kernelMs += pass.phases.kernelMs;
    ++blocks;
  }
  const double transformMs = msSince(transformStart);
  std::vector<double> rows(2 * kBlock);
  const std::string written = folder + "/rows.bin";
  const auto writeStart = Clock::now();
  {
    std::FILE* file = std::fopen(written.c_str(), "wb");
    if (!file) return 1;
    for (std::uint64_t done = 0; done < samples; done += kBlock) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(kBlock, samples - done));
      std::fwrite(rows.data(), sizeof(double), 2 * n, file);
    }
    std::fclose(file);
  }
  const double writeMs = msSince(writeStart);
  std::filesystem::remove(written);
  std::printf("where hilbert's time goes, each phase alone (one run):\n");
  std::printf("  read the file (median above)                       %9.1f ms\n", readMs);
  std::printf("  %4.0f overlapped blocks on gpu-fft from host memory  %9.1f ms (event timers: copies %.1f ms, "
              "FFTs and kernels %.1f ms)\n", blocks, transformMs, copiesMs, kernelMs);
  std::printf("  write re and im (fwrite, %.0f MB in 8 MiB pieces)     %9.1f ms\n", 2 * megabytes, writeMs);
  std::printf("  sum of the phases                                  %9.1f ms; streamed end to end %.1f ms\n",
              readMs + transformMs + writeMs, median(cases[1].ms));
  for (const int k : {1, 4}) {
    const double ratio = median(cases[static_cast<std::size_t>(k)].ms) / (k == 1 ? readMs : coldReadMs);
    std::printf("target: hilbert end to end <= 1.2x reading the file, page cache %s: %.2fx %s\n", k == 1 ? "warm" : "cold",
                ratio, ratio <= 1.2 ? "met" : "MISSED");
  }
  return 0;
}

}  // namespace
}  // namespace siglab

int main(int argc, char** argv) { return siglab::run(argc, argv); }
