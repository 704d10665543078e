#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/text_format.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::size_t entriesIn(const std::filesystem::path& folder) {
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(folder)) ++entries;
  return entries;
}

std::string readError(const std::string& path, const ReadOptions& options = {}) {
  try {
    readSignal(path, options);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(SignalIo, PicksTheFormatByMagicThenByOptionThenByExtension) {
  test::TempDir dir;
  const std::vector<double> values = {1.0, -2.0, 0.5};
  writeSignal(dir.file("a.npy"), values);
  std::filesystem::copy_file(dir.file("a.npy"), dir.file("npy-named.txt"));
  EXPECT_EQ(readSignal(dir.file("npy-named.txt")).samples, values);
  WriteOptions wav;
  wav.format = FileFormat::wav;
  writeSignal(dir.file("wav-named.dat"), values, wav);
  EXPECT_EQ(readSignal(dir.file("wav-named.dat")).samples, values);
  EXPECT_EQ(readSignal(dir.file("wav-named.dat")).sampleRate, 48000.0);

  writeSignal(dir.file("b.raw"), values);
  EXPECT_EQ(readError(dir.file("b.raw")), dir.file("b.raw") + ": a raw binary file: name its sample type (--raw f64|f32|i16|i32)");
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  EXPECT_EQ(readSignal(dir.file("b.raw"), raw).samples, values);
  EXPECT_FALSE(readSignal(dir.file("b.raw"), raw).sampleRate);

  test::writeFile(dir.file("c.npy"), "1\n2\n");
  EXPECT_EQ(readError(dir.file("c.npy")), dir.file("c.npy") + ": not a .npy file: it does not start with \\x93NUMPY");
  ReadOptions text;
  text.format = FileFormat::text;
  EXPECT_EQ(readSignal(dir.file("c.npy"), text).samples, (std::vector<double>{1.0, 2.0}));
}

TEST(SignalIo, MissingEmptyAndDirectoryInputsAreClearErrors) {
  test::TempDir dir;
  EXPECT_EQ(readError(dir.file("absent.txt")), dir.file("absent.txt") + ": cannot open: No such file or directory");
  EXPECT_EQ(readError(dir.path().string()), dir.path().string() + ": cannot read: it is a directory");
  test::writeFile(dir.file("empty.txt"), "");
  EXPECT_EQ(readError(dir.file("empty.txt")), dir.file("empty.txt") + ": the file is empty: expected one number per line");
  test::writeFile(dir.file("empty.bin"), "");
  ReadOptions raw;
  raw.rawType = SampleType::i16;
  EXPECT_EQ(readError(dir.file("empty.bin"), raw), dir.file("empty.bin") + ": no i16 samples after offset 0");
}

TEST(SignalIo, TextOutputIsTheSeedFormatOrTheShortestRoundTrip) {
  test::TempDir dir;
  const std::vector<double> values = {0.1, -1e-20, 1e17};
  writeSignal(dir.file("seed.txt"), values);
  EXPECT_EQ(test::readFile(dir.file("seed.txt")),
            "0.1000000000000000\n-0.0000000000000000\n100000000000000000.0000000000000000\n");
  WriteOptions shortest;
  shortest.textStyle = TextStyle::shortest;
  writeSignal(dir.file("short.csv"), values, shortest);
  EXPECT_EQ(test::readFile(dir.file("short.csv")), "0.1\n-1e-20\n1e+17\n");
  EXPECT_EQ(readSignal(dir.file("short.csv")).samples, values);
}

TEST(SignalIo, CancelledExportKeepsTheOldFileAndLeavesNoTemporary) {
  test::TempDir dir;
  test::writeFile(dir.file("result.txt"), "precious\n");
  const std::vector<double> values(300000, 0.5);
  std::atomic<bool> cancel{false};
  Progress progress;
  progress.cancelFlag = &cancel;
  progress.onProgress = [&](double f) {
    if (f > 0.5) cancel = true;
  };
  EXPECT_THROW(writeSignal(dir.file("result.txt"), values, {}, progress), Cancelled);
  EXPECT_EQ(test::readFile(dir.file("result.txt")), "precious\n");
  EXPECT_EQ(entriesIn(dir.path()), 1u);

  // Cancelled during the write itself (after formatting): the same guarantee.
  std::atomic<bool> late{false};
  Progress writing;
  writing.cancelFlag = &late;
  writing.onProgress = [&](double f) {
    if (f > 0.8) late = true;
  };
  const std::string big(40u << 20, 'x');
  EXPECT_THROW(writeFileAtomically(dir.file("result.txt"), big, writing), Cancelled);
  EXPECT_EQ(test::readFile(dir.file("result.txt")), "precious\n");
  EXPECT_EQ(entriesIn(dir.path()), 1u);
}

// A full disk, simulated with a file-size limit in a child process (EFBIG from write, as ENOSPC would be).
TEST(SignalIo, FailedExportReportsTheReasonKeepsTheOldFileAndLeavesNoTemporary) {
  test::TempDir dir;
  const std::string target = dir.file("result.txt");
  test::writeFile(target, "precious\n");
  std::fflush(nullptr);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      writeSignal(target, std::vector<double>(100000, 0.25));
    } catch (const InputError& e) {
      const bool named = std::string(e.what()) == target + ": write failed: File too large";
      ::_exit(named ? 0 : 2);
    }
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "1: no error; 2: the message did not give the file and reason";
  EXPECT_EQ(test::readFile(target), "precious\n");
  EXPECT_EQ(entriesIn(dir.path()), 1u);
}

TEST(SignalIo, ExportReportsProgressUpToOne) {
  test::TempDir dir;
  double last = 0.0;
  int calls = 0;
  std::mutex lock;
  Progress progress;
  progress.onProgress = [&](double f) {
    const std::lock_guard guard(lock);
    last = std::max(last, f);
    ++calls;
  };
  writeSignal(dir.file("p.txt"), std::vector<double>(500000, 1.0), {}, progress);
  EXPECT_DOUBLE_EQ(last, 1.0);
  EXPECT_GE(calls, 5);
}

}  // namespace
}  // namespace siglab
