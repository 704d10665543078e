// Signals larger than memory (issue 13 targets), each ratio measured in this run:
//  - peak resident memory of streaming filter and statistics on a raw float64 file and a text file;
//  - raw f64 -> raw f64 through cpu-parallel against copying the same file with cp (page cache warm);
//  - a seed-format text file to result.txt against the seed program (fscanf, serial loop, fprintf),
//    byte-identical.
// Every measured run is a child process, so that its peak resident memory (ru_maxrss) is its own.
// Usage: siglab-stream-bench [--folder DIR] [--raw-gib G] [--text-lines N] [--repeats R]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "seed_program.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/minmax_pyramid.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/measure.hpp"
#include "siglab/stream_filter.hpp"
#include "siglab/stream_statistics.hpp"

namespace {

using namespace siglab;

struct ChildRun {
  double ms = 0.0;
  double peakMiB = 0.0;
  bool ok = false;
};

// Runs `work` in a child process: its wall time, peak resident memory and whether it succeeded.
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

// The median over `repeats` child runs after one warm-up run, and the largest peak memory seen.
ChildRun timeInChildren(int repeats, const std::function<void()>& work) {
  inChild(work);
  std::vector<double> ms;
  ChildRun worst;
  worst.ok = true;
  const PhaseStats stats = measure(
      [&] {
        const ChildRun run = inChild(work);
        worst.peakMiB = std::max(worst.peakMiB, run.peakMiB);
        worst.ok = worst.ok && run.ok;
        return PhaseTimes{run.ms, 0.0, run.ms};
      },
      MeasureOptions{0, repeats});
  worst.ms = stats.total.medianMs;
  return worst;
}

void streamFilterFile(const std::string& in, const std::string& out, const ReadOptions& read, const WriteOptions& write) {
  const auto stream = openSampleStream(in, read);
  const auto sink = openSampleSink(out, write, stream->knownSize());
  streamFilter(*stream, in, read, makeMeanFilter(5), [](auto x, const FilterSpec& spec, auto y) { filterParallel(x, spec, y); },
               *sink);
  sink->commit();
}

void streamStatsFile(const std::string& in, const ReadOptions& read) {
  const auto stream = openSampleStream(in, read);
  const Statistics s = streamStatistics(*stream);
  if (s.count == 0) throw std::runtime_error("no samples");
}


// A signal of `count` random samples written block by block (so making it needs no memory).
void writeRandom(const std::string& path, std::uint64_t count, const WriteOptions& options) {
  const auto sink = openSampleSink(path, options, count);
  std::mt19937_64 rng(1);
  std::normal_distribution<double> noise(0.0, 0.25);
  std::vector<double> block(1 << 20);
  for (std::uint64_t done = 0; done < count; done += block.size()) {
    block.resize(static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), count - done)));
    for (std::size_t i = 0; i < block.size(); ++i) block[i] = std::sin(static_cast<double>(done + i) * 0.00314) + noise(rng);
    sink->write(block);
  }
  sink->commit();
}

void warmPageCache(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<char> buffer(1 << 22);
  while (in.read(buffer.data(), static_cast<std::streamsize>(buffer.size())) || in.gcount() > 0) {
  }
}

bool sameFiles(const std::string& a, const std::string& b) {
  return std::system(("cmp -s '" + a + "' '" + b + "'").c_str()) == 0;
}

std::string loadAverage() {
  std::ifstream in("/proc/loadavg");
  std::string one, five, fifteen;
  in >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"siglab-stream-bench: streaming filter and statistics against cp and the seed program"};
  std::string folder = std::filesystem::temp_directory_path().string();
  double rawGiB = 8.0;
  std::uint64_t textLines = 100'000'000;
  int repeats = 3;
  app.add_option("--folder", folder, "Scratch folder (needs 2 x raw + 3 x text bytes free)");
  app.add_option("--raw-gib", rawGiB, "Size of the raw float64 file in GiB");
  app.add_option("--text-lines", textLines, "Lines of the seed-format text file");
  app.add_option("--repeats", repeats, "Timed runs after one warm-up");
  CLI11_PARSE(app, argc, argv);

  const std::string raw = folder + "/siglab-stream-bench.f64", rawOut = folder + "/siglab-stream-bench-out.f64",
                    rawCopy = folder + "/siglab-stream-bench-copy.f64", text = folder + "/siglab-stream-bench.txt",
                    textOut = folder + "/siglab-stream-bench-result.txt", seedOut = folder + "/siglab-stream-bench-seed.txt";
  const auto rawSamples = static_cast<std::uint64_t>(rawGiB * (1ull << 30) / 8);
  WriteOptions rawWrite;
  rawWrite.durability = Durability::buffered;
  rawWrite.format = FileFormat::raw;
  WriteOptions textWrite;
  textWrite.durability = Durability::buffered;
  ReadOptions rawRead;
  rawRead.rawType = SampleType::f64;

  std::printf("siglab-stream-bench: %u hardware threads, load average %s\n", std::thread::hardware_concurrency(),
              loadAverage().c_str());
  writeRandom(raw, rawSamples, rawWrite);
  writeRandom(text, textLines, textWrite);
  std::printf("inputs: raw float64 %.2f GiB (%llu samples), text %.2f GB (%llu lines); median of %d runs after a warm-up\n\n",
              static_cast<double>(std::filesystem::file_size(raw)) / (1ull << 30), static_cast<unsigned long long>(rawSamples),
              static_cast<double>(std::filesystem::file_size(text)) / 1e9, static_cast<unsigned long long>(textLines),
              repeats);

  bool ok = true;
  warmPageCache(raw);
  const ChildRun copy = timeInChildren(repeats, [&] {
    if (std::system(("cp '" + raw + "' '" + rawCopy + "'").c_str()) != 0) throw std::runtime_error("cp failed");
  });
  const ChildRun rawFilter = timeInChildren(repeats, [&] { streamFilterFile(raw, rawOut, rawRead, rawWrite); });
  const ChildRun rawStats = timeInChildren(repeats, [&] { streamStatsFile(raw, rawRead); });
  const double rawGB = static_cast<double>(std::filesystem::file_size(raw)) / 1e9;
  std::printf("raw float64 -> raw float64, W = 5, cpu-parallel (page cache warm)\n");
  std::printf("  cp                      %9.0f ms  %6.2f GB/s\n", copy.ms, rawGB / copy.ms * 1e3);
  std::printf("  siglab stream filter    %9.0f ms  %6.2f GB/s  peak %6.1f MiB  -> %.0f%% of cp's throughput (target >= 70%%)\n",
              rawFilter.ms, rawGB / rawFilter.ms * 1e3, rawFilter.peakMiB, 100.0 * copy.ms / rawFilter.ms);
  std::printf("  siglab stream stats     %9.0f ms  %6.2f GB/s  peak %6.1f MiB\n", rawStats.ms, rawGB / rawStats.ms * 1e3,
              rawStats.peakMiB);
  // What the GUI does to open a file too large for memory: map it, build the min/max pyramid
  // from the mapping on every core, letting the pages go behind; against one plain read of it.
  const ChildRun readAll = timeInChildren(repeats, [&] { warmPageCache(raw); });
  const ChildRun view = timeInChildren(repeats, [&] {
    const auto mapped = MappedSignal::open(raw, rawRead, folder + "/siglab-stream-bench-cache");
    const MinMaxPyramid pyramid(mapped->samples(), {}, MinMaxPyramid::kMaxFirstLevelBuckets,
                                [&](std::size_t first, std::size_t count) { mapped->release(first, count); });
    if (pyramid.size() != rawSamples) throw std::runtime_error("pyramid size");
  });
  std::printf("  read the file (4 MiB reads) %5.0f ms  %6.2f GB/s\n", readAll.ms, rawGB / readAll.ms * 1e3);
  std::printf("  view: map + min/max pyramid %5.0f ms  %6.2f GB/s  peak %6.1f MiB  -> %.0f%% of the read's throughput\n\n",
              view.ms, rawGB / view.ms * 1e3, view.peakMiB, 100.0 * readAll.ms / view.ms);
  ok = ok && copy.ok && rawFilter.ok && rawStats.ok && readAll.ok && view.ok;
  std::filesystem::remove(rawCopy);
  std::filesystem::remove(rawOut);

  warmPageCache(text);
  const ChildRun seed = timeInChildren(1, [&] { siglab::bench::seedProgram(text, seedOut); });
  const ChildRun textFilter = timeInChildren(repeats, [&] { streamFilterFile(text, textOut, {}, textWrite); });
  const ChildRun textStats = timeInChildren(repeats, [&] { streamStatsFile(text, {}); });
  const bool same = sameFiles(seedOut, textOut);
  std::printf("seed-format text -> result.txt, W = 5 (page cache warm; the seed program timed once after a warm-up)\n");
  std::printf("  seed program            %9.0f ms  peak %7.1f MiB\n", seed.ms, seed.peakMiB);
  std::printf("  siglab stream filter    %9.0f ms  peak %7.1f MiB  -> %.1fx faster (target >= 6x); byte-identical: %s\n",
              textFilter.ms, textFilter.peakMiB, seed.ms / textFilter.ms, same ? "yes" : "NO");
  std::printf("  siglab stream stats     %9.0f ms  peak %7.1f MiB\n", textStats.ms, textStats.peakMiB);
  ok = ok && seed.ok && textFilter.ok && textStats.ok && same;
  const double peak = std::max({rawFilter.peakMiB, rawStats.peakMiB, textFilter.peakMiB, textStats.peakMiB});
  std::printf("\nlargest peak resident memory of a streaming run: %.1f MiB (target <= 256 MiB): %s\n", peak,
              peak <= 256.0 ? "met" : "MISSED");
  std::printf("load average at end: %s\n", loadAverage().c_str());
  for (const auto& path : {raw, text, textOut, seedOut}) std::filesystem::remove(path);
  return ok ? 0 : 1;
}
