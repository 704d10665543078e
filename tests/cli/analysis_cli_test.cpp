// `filter` with an analysis stage at the end of the chain (spectrogram, find-peaks): the matrix or
// the table is the run's -o; a stage after it, a parameter out of range or an output of the wrong
// kind is exit 2 naming it, with nothing written.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>

#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

namespace fs = std::filesystem;
using test::runCli;

std::string writeWav(const test::TempDir& dir, std::uint64_t count) {
  GenerateOptions options;
  options.count = count;
  WriteOptions write;
  write.sampleRate = 8000;
  const std::string path = dir.file("in.wav");
  writeSignal(path, generateSignal(options), write);
  return path;
}

TEST(AnalysisCli, AChainEndingInASpectrogramWritesItsMatrix) {
  const test::TempDir dir;
  const std::string in = writeWav(dir, 20000);
  const auto run = runCli("filter " + in + " -o " + dir.file("spec.npy") +
                              " --chain \"butter 4,0.2; spectrogram nperseg=1024\"", dir);
  ASSERT_EQ(run.exitCode, 0) << run.err;
  // (20000 - 128) // 896 frames of 513 frequencies; frame 0 centred at 512 / 8000 s.
  EXPECT_NE(run.out.find("wrote " + dir.file("spec.npy") + ": 22 frames x 513 frequencies, float64 .npy of shape (22, 513); "
                         "frame k centred at 0.064 + k x 0.112 s, frequency j at j x 7.8125 Hz"), std::string::npos)
      << run.out;
  EXPECT_EQ(fs::file_size(dir.file("spec.npy")), 128 + 22 * 513 * 8u);
}

TEST(AnalysisCli, FindPeaksWritesATableWithTimes) {
  const test::TempDir dir;
  const std::string in = writeWav(dir, 5000);
  const auto run = runCli("filter " + in + " -o " + dir.file("peaks.csv") + " --find-peaks height=0.5 --distance 20", dir);
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find(" peaks (CSV table, one row a peak)"), std::string::npos) << run.out;
  EXPECT_EQ(test::readFile(dir.file("peaks.csv")).substr(0, 18), "index,time,height\n");
}

// SciPy's (min, max) as one option (--height 0.2,0.6) reads as its two (--height 0.2 --height-max 0.6).
TEST(AnalysisCli, FindPeaksIntervalOptionReadsAsItsMinimumAndMaximum) {
  const test::TempDir dir;
  const std::string in = writeWav(dir, 5000);
  const auto interval = runCli("filter " + in + " -o " + dir.file("a.csv") + " --find-peaks wlen=9 --height 0.2,0.6", dir);
  ASSERT_EQ(interval.exitCode, 0) << interval.err;
  const auto both = runCli("filter " + in + " -o " + dir.file("b.csv") + " --find-peaks wlen=9 --height 0.2 --height-max 0.6", dir);
  ASSERT_EQ(both.exitCode, 0) << both.err;
  EXPECT_EQ(test::readFile(dir.file("a.csv")), test::readFile(dir.file("b.csv")));
  const auto twice = runCli("filter " + in + " -o " + dir.file("c.csv") + " --find-peaks wlen=9 --height 0.2,0.6 --height-max 1", dir);
  EXPECT_EQ(twice.exitCode, 2);
  EXPECT_NE(twice.err.find("height-max is given twice"), std::string::npos) << twice.err;
  EXPECT_FALSE(fs::exists(dir.file("c.csv")));
}

// SciPy's stft takes any overlap; where istft cannot invert the result (NOLA fails), a note says so.
TEST(AnalysisCli, AnStftIstftCannotInvertIsWrittenWithANote) {
  const test::TempDir dir;
  const std::string in = writeWav(dir, 1000);
  const auto run = runCli("filter " + in + " -o " + dir.file("z.npy") + " --chain \"stft nperseg=8 noverlap=0\"", dir);
  ASSERT_EQ(run.exitCode, 0) << run.err;
  EXPECT_NE(run.out.find("note: the hann window with noverlap 0 fails the NOLA constraint: istft cannot invert this STFT"),
            std::string::npos) << run.out;
  const auto fine = runCli("filter " + in + " -o " + dir.file("z.npy") + " --chain \"stft nperseg=8\"", dir);
  ASSERT_EQ(fine.exitCode, 0) << fine.err;
  EXPECT_EQ(fine.out.find("NOLA"), std::string::npos) << fine.out;
}

TEST(AnalysisCli, WhatCannotRunIsExit2NamingItAndWritesNothing) {
  const test::TempDir dir;
  const std::string in = writeWav(dir, 3000);
  const struct {
    std::string args, message;
  } cases[] = {
      {"--chain \"spectrogram; mean 3\" -o " + dir.file("a.npy"),
       "stage 1 (spectrogram): spectrogram writes a matrix or a table, not a signal, so it must end the chain; stage 2 "
       "(mean) follows it"},
      {"--spectrogram nperseg=64 --noverlap 64 -o " + dir.file("a.npy"), "--noverlap must be from 0 to nperseg - 1 = 63, got 64"},
      {"--chain \"mean 3; spectrogram nfft=8\" -o " + dir.file("a.npy"), "stage 2 (spectrogram): nfft 8 must be at least nperseg 256"},
      {"--find-peaks wlen=1 -o " + dir.file("a.csv"), "--wlen must be larger than 1, got 1"},
      {"--find-peaks height=3 -o " + dir.file("a.wav"), "find-peaks writes a table: the output must end in .csv or .json"},
  };
  for (const auto& [args, message] : cases) {
    const auto run = runCli("filter " + in + " " + args, dir);
    EXPECT_EQ(run.exitCode, 2) << args;
    EXPECT_NE(run.err.find(message), std::string::npos) << run.err;
  }
  for (const char* name : {"a.npy", "a.csv", "a.wav"}) EXPECT_FALSE(fs::exists(dir.file(name))) << name;
}

}  // namespace
}  // namespace siglab
