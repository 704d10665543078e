// Signals larger than memory (issue 13 targets), each ratio measured in this run, through
// siglab-cli as users run it:
//  - peak resident memory of `filter` and `stats` on a raw float64 file (8 GiB) and a text file
//    (100M lines, about 2 GB);
//  - raw f64 -> raw f64 through `filter -e cpu-parallel` against copying the same file with cp
//    (page cache warm; neither flushes its output to disk), and each followed by an fsync of its
//    output; the four runs alternate, round after round;
//  - the text file to result.txt against the seed program (fscanf, serial loop, fprintf),
//    byte-identical.
// Every measured run is a child process, so that its peak resident memory (ru_maxrss) and CPU
// time are its own. At most the raw file and one copy of it (or the text file, its result and
// the seed's) are on disk at a time; every file is removed at the end.
// Usage: siglab-stream-bench [--folder DIR] [--raw-gib G] [--copy-gib G] [--text-lines N] [--repeats R]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
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
#include <thread>
#include <vector>

#include "seed_program.hpp"
#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/measure.hpp"
#include "siglab/timing.hpp"
#include "siglab/minmax_pyramid.hpp"

namespace {

using namespace siglab;

struct ChildRun {
  double ms = 0.0;
  double cpuMs = 0.0;  // user + system
  double peakMiB = 0.0;
  bool ok = false;
  double fastestMs = 0.0, slowestMs = 0.0;  // of the timed runs, where kept (alternating runs)
};

// Runs `work` in a child process: its wall time, CPU time, peak resident memory and whether it
// succeeded (exit status 0).
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
  const auto toMs = [](const timeval& t) { return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_usec) / 1e3; };
  return {ms, toMs(usage.ru_utime) + toMs(usage.ru_stime), static_cast<double>(usage.ru_maxrss) / 1024.0,
          WIFEXITED(status) && WEXITSTATUS(status) == 0};
}

// The median wall and CPU time over `repeats` child runs after one warm-up run (measure()), and
// the largest peak memory seen. `before` runs ahead of each run, untimed (removing an old output).
ChildRun timeInChildren(int repeats, const std::function<void()>& work, const std::function<void()>& before = [] {}) {
  ChildRun worst;
  worst.ok = true;
  std::vector<double> cpu;
  const PhaseStats stats = measure(
      [&] {
        before();
        const ChildRun run = inChild(work);
        worst.peakMiB = std::max(worst.peakMiB, run.peakMiB);
        worst.ok = worst.ok && run.ok;
        return PhaseTimes{run.cpuMs, 0.0, run.ms};
      },
      MeasureOptions{1, repeats});
  worst.ms = stats.total.medianMs;
  worst.cpuMs = stats.kernel.medianMs;
  return worst;
}

struct Contender {
  std::function<void()> work;
  std::function<void()> before;  // untimed, ahead of each run (removing an old output)
};

// Like timeInChildren for several contenders whose runs alternate (measure() runs the rounds of one
// run each, a warm-up round first), so that a drift of the machine's speed over the minutes falls
// on all of them.
std::vector<ChildRun> timeAlternating(int repeats, const std::vector<Contender>& contenders) {
  std::vector<ChildRun> result(contenders.size());
  std::vector<std::vector<double>> wall(contenders.size()), cpu(contenders.size());
  for (ChildRun& r : result) r.ok = true;
  measure(
      [&] {
        for (std::size_t k = 0; k < contenders.size(); ++k) {
          contenders[k].before();
          const ChildRun run = inChild(contenders[k].work);
          result[k].ok = result[k].ok && run.ok;
          result[k].peakMiB = std::max(result[k].peakMiB, run.peakMiB);
          wall[k].push_back(run.ms);
          cpu[k].push_back(run.cpuMs);
        }
        return PhaseTimes{};
      },
      MeasureOptions{1, repeats});
  for (std::size_t k = 0; k < contenders.size(); ++k) {
    const TimingStats timed = summarize({wall[k].begin() + 1, wall[k].end()});  // [0]: the warm-up
    result[k].ms = timed.medianMs;
    result[k].fastestMs = timed.minMs;
    result[k].slowestMs = timed.maxMs;
    result[k].cpuMs = summarize({cpu[k].begin() + 1, cpu[k].end()}).medianMs;
  }
  return result;
}

// Replaces the child with `program args...`, its output going to `log`.
void execLogged(const std::vector<std::string>& args, const std::string& log) {
  const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) throw std::runtime_error("cannot open " + log);
  ::dup2(fd, STDOUT_FILENO);
  ::dup2(fd, STDERR_FILENO);
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  ::execv(argv[0], argv.data());
  throw std::runtime_error("cannot run " + args[0]);
}

// A signal of `count` random non-zero samples: 8 MiB of them drawn once and written over and over
// (making 8 GiB takes the disk's time, not the generator's).
void writeRandom(const std::string& path, std::uint64_t count, const WriteOptions& options) {
  const auto sink = openSampleSink(path, options, count);
  std::mt19937_64 rng(1);
  std::normal_distribution<double> noise(0.0, 0.25);
  std::vector<double> block(1 << 20);
  for (std::size_t i = 0; i < block.size(); ++i) block[i] = std::sin(static_cast<double>(i) * 0.00314) + noise(rng) + 1e-3;
  for (std::uint64_t done = 0; done < count; done += block.size()) {
    sink->write(std::span<const double>(block).first(static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), count - done))));
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

// Reads a named pipe to its end on a thread (the other end of a filter writing into it).
std::thread drainPipe(const std::string& fifo) {
  return std::thread([fifo] {
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    if (fd < 0) return;
    std::vector<char> buffer(1 << 20);
    while (::read(fd, buffer.data(), buffer.size()) > 0) {
    }
    ::close(fd);
  });
}

// Joins the pipe's reader; one still waiting for a writer (the filter failed first) gets an end.
void unblockAndJoin(std::thread& reader, const std::string& fifo) {
  if (!reader.joinable()) return;
  const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (fd >= 0) ::close(fd);
  reader.join();
}

void printRun(const char* label, const ChildRun& run, double gb) {
  const std::string spread = run.slowestMs > 0.0 ? "  runs " + std::to_string(std::lround(run.fastestMs)) + "-" +
                                                        std::to_string(std::lround(run.slowestMs)) + " ms"
                                                  : "";
  std::printf("  %-30s %8.0f ms  %6.2f GB/s  cpu %7.0f ms  peak %7.1f MiB%s%s\n", label, run.ms, gb / run.ms * 1e3, run.cpuMs,
              run.peakMiB, spread.c_str(), run.ok ? "" : "  FAILED");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"siglab-stream-bench: siglab-cli filter and stats on files larger than memory, against cp and the seed program"};
  std::string folder = std::filesystem::temp_directory_path().string();
  std::string cli = SIGLAB_CLI_PATH;
  double rawGiB = 8.0, copyGiB = 4.0;
  std::uint64_t textLines = 100'000'000;
  int repeats = 1;
  app.add_option("--folder", folder, "Scratch folder (needs max(raw, 2 x copy) GiB and 3 x the text file free)");
  app.add_option("--cli", cli, "siglab-cli to measure")->capture_default_str();
  app.add_option("--raw-gib", rawGiB, "Size of the raw float64 file for peak memory, in GiB")->capture_default_str();
  app.add_option("--copy-gib", copyGiB, "Size of the raw float64 file filtered against cp, in GiB")->capture_default_str();
  app.add_option("--text-lines", textLines, "Lines of the seed-format text file")->capture_default_str();
  app.add_option("--repeats", repeats, "Timed runs after one warm-up")->capture_default_str();
  CLI11_PARSE(app, argc, argv);

  const std::string raw = folder + "/siglab-stream-bench.f64", copyIn = folder + "/siglab-stream-bench-copy-in.f64",
                    copyOut = folder + "/siglab-stream-bench-copy.f64", filterOut = folder + "/siglab-stream-bench-out.raw",
                    fifo = folder + "/siglab-stream-bench-pipe.raw", text = folder + "/siglab-stream-bench.txt",
                    textOut = folder + "/siglab-stream-bench-result.txt", seedOut = folder + "/siglab-stream-bench-seed.txt",
                    log = folder + "/siglab-stream-bench.log";
  WriteOptions rawWrite;
  rawWrite.durability = Durability::buffered;
  rawWrite.format = FileFormat::raw;
  WriteOptions textWrite;
  textWrite.durability = Durability::buffered;
  ReadOptions rawRead;
  rawRead.rawType = SampleType::f64;
  bool ok = true;
  double peak = 0.0;
  const auto remove = [](const std::string& path) { std::filesystem::remove(path); };

  std::printf("siglab-stream-bench: %u hardware threads, load average %s (other work on the machine shares its "
              "cores)\n", std::thread::hardware_concurrency(), loadAverage().c_str());
  std::printf("each figure: median of %d run(s) after a warm-up run, every run a child process; page cache warm\n"
              "(the raw-to-raw runs against cp alternate: cp, filter, cp + fsync, filter + fsync, round after round)\n\n", repeats);

  // 1. Peak memory on a raw float64 file larger than memory allows the in-memory path.
  const auto rawSamples = static_cast<std::uint64_t>(rawGiB * (1ull << 30) / 8);
  writeRandom(raw, rawSamples, rawWrite);
  warmPageCache(raw);
  const double rawGB = static_cast<double>(std::filesystem::file_size(raw)) / 1e9;
  std::printf("raw float64 %.2f GiB (%llu samples), W = 5 mean\n", rawGB * 1e9 / (1ull << 30),
              static_cast<unsigned long long>(rawSamples));
  const ChildRun rawStats = timeInChildren(repeats, [&] { execLogged({cli, "stats", raw, "--raw", "f64", "-q"}, log); });
  ::mkfifo(fifo.c_str(), 0600);
  std::thread drain;
  const ChildRun rawFilter = timeInChildren(
      repeats, [&] { execLogged({cli, "filter", raw, "--raw", "f64", "-e", "cpu-parallel", "-q", "-o", fifo}, log); },
      [&] {
        unblockAndJoin(drain, fifo);
        drain = drainPipe(fifo);
      });
  unblockAndJoin(drain, fifo);
  remove(fifo);
  printRun("stats", rawStats, rawGB);
  printRun("filter into a pipe (raw out)", rawFilter, rawGB);
  // What the GUI does to open a file too large for memory: map it, build the min/max pyramid
  // from the mapping on every core, letting the pages go behind; against one plain read of it.
  const ChildRun readAll = timeInChildren(repeats, [&] { warmPageCache(raw); });
  const ChildRun view = timeInChildren(repeats, [&] {
    const auto mapped = MappedSignal::open(raw, rawRead, folder + "/siglab-stream-bench-cache");
    const MinMaxPyramid pyramid(mapped->samples(), {}, MinMaxPyramid::kMaxFirstLevelBuckets,
                                [&](std::size_t first, std::size_t count) { mapped->release(first, count); });
    if (pyramid.size() != rawSamples) throw std::runtime_error("pyramid size");
  });
  printRun("read the file (4 MiB reads)", readAll, rawGB);
  printRun("view: map + min/max pyramid", view, rawGB);
  std::printf("  -> view at %.0f%% of the read's throughput\n\n", 100.0 * readAll.ms / view.ms);
  ok = ok && rawStats.ok && rawFilter.ok && readAll.ok && view.ok;
  peak = std::max({peak, rawStats.peakMiB, rawFilter.peakMiB});
  remove(raw);

  // 2. Raw to raw against cp.
  writeRandom(copyIn, static_cast<std::uint64_t>(copyGiB * (1ull << 30) / 8), rawWrite);
  warmPageCache(copyIn);
  const double copyGB = static_cast<double>(std::filesystem::file_size(copyIn)) / 1e9;
  const auto freshOutputs = [&] {  // one output on disk at a time
    remove(copyOut);
    remove(filterOut);
  };
  const std::string copyCommand = "cp '" + copyIn + "' '" + copyOut + "'";
  const std::string filterCommand =
      "'" + cli + "' filter '" + copyIn + "' --raw f64 -e cpu-parallel -q -o '" + filterOut + "'";
  const std::vector<ChildRun> copyRuns = timeAlternating(
      repeats,
      {{[&] { execLogged({"/bin/cp", copyIn, copyOut}, log); }, freshOutputs},
       {[&] { execLogged({cli, "filter", copyIn, "--raw", "f64", "-e", "cpu-parallel", "-q", "-o", filterOut}, log); },
        freshOutputs},
       {[&] { execLogged({"/bin/sh", "-c", copyCommand + " && sync '" + copyOut + "'"}, log); }, freshOutputs},
       {[&] { execLogged({"/bin/sh", "-c", filterCommand + " && sync '" + filterOut + "'"}, log); }, freshOutputs}});
  freshOutputs();
  const ChildRun &copy = copyRuns[0], &copyFilter = copyRuns[1], &copySynced = copyRuns[2], &filterSynced = copyRuns[3];
  std::printf("raw float64 %.2f GiB -> raw float64, W = 5 mean, cpu-parallel\n", copyGB * 1e9 / (1ull << 30));
  printRun("cp", copy, copyGB);
  printRun("cp, then fsync of the copy", copySynced, copyGB);
  printRun("siglab-cli filter", copyFilter, copyGB);
  printRun("siglab-cli filter, then fsync", filterSynced, copyGB);
  std::printf("  -> filter at %.0f%% of cp's throughput (target >= 70%%); with an fsync each, %.0f%%\n\n",
              100.0 * copy.ms / copyFilter.ms, 100.0 * copySynced.ms / filterSynced.ms);
  ok = ok && copy.ok && copySynced.ok && copyFilter.ok && filterSynced.ok;
  peak = std::max(peak, copyFilter.peakMiB);
  remove(copyIn);

  // 3. Text against the seed program.
  writeRandom(text, textLines, textWrite);
  warmPageCache(text);
  const double textGB = static_cast<double>(std::filesystem::file_size(text)) / 1e9;
  std::printf("seed-format text, %llu lines (%.2f GB) -> result.txt, W = 5 mean, engine auto\n",
              static_cast<unsigned long long>(textLines), textGB);
  const ChildRun seed = inChild([&] { siglab::bench::seedProgram(text, seedOut); });  // once: it takes minutes
  const ChildRun textFilter =
      timeInChildren(repeats, [&] { execLogged({cli, "filter", text, "-q", "-o", textOut}, log); }, [&] { remove(textOut); });
  const ChildRun textStats = timeInChildren(repeats, [&] { execLogged({cli, "stats", text, "-q"}, log); });
  const bool same = sameFiles(seedOut, textOut);
  printRun("seed program (one run)", seed, textGB);
  printRun("siglab-cli filter", textFilter, textGB);
  printRun("siglab-cli stats", textStats, textGB);
  std::printf("  -> filter %.1fx faster than the seed program (target >= 6x); byte-identical: %s\n", seed.ms / textFilter.ms,
              same ? "yes" : "NO");
  ok = ok && seed.ok && textFilter.ok && textStats.ok && same;
  peak = std::max({peak, textFilter.peakMiB, textStats.peakMiB});
  for (const auto& path : {text, textOut, seedOut}) remove(path);

  std::printf("\nlargest peak resident memory of filter and stats: %.1f MiB (target <= 256 MiB): %s\n", peak,
              peak <= 256.0 ? "met" : "MISSED");
  std::printf("load average at end: %s\n", loadAverage().c_str());
  remove(log);
  std::filesystem::remove_all(folder + "/siglab-stream-bench-cache");
  return ok ? 0 : 1;
}
