// siglab-cli spectrum and response, and --rate, checked by running the real binary.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <random>
#include <sstream>

#include "siglab/frequency_response.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/spectrum.hpp"
#include "siglab/taps.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Outcome = test::CliOutcome;
using test::runCli;

// The rows of a CSV file with a header line, as numbers.
std::vector<std::vector<double>> readCsv(const std::string& path, std::string& header) {
  std::istringstream in(test::readFile(path));
  std::getline(in, header);
  std::vector<std::vector<double>> rows;
  for (std::string line; std::getline(in, line);) {
    std::vector<double> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::strtod(cell.c_str(), nullptr));
    rows.push_back(row);
  }
  return rows;
}

TEST(CliSpectrum, WritesTheWelchSpectrumAsCsvInHzAndAsNpy) {
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(3000, rng);
  writeSignal(dir.file("in.txt"), x);
  const Outcome o = runCli("spectrum " + dir.file("in.txt") + " --rate 8000 --segment 100 --window hamming -o " +
                               dir.file("psd.csv"), dir);
  ASSERT_EQ(o.exitCode, 0) << o.err;
  const Signal read = readSignal(dir.file("in.txt"));  // the samples as the CLI read them
  WelchOptions options;
  options.segment = 100;
  options.window = SpectrumWindow::hamming;
  options.sampleRate = 8000.0;
  const Spectrum want = welch(read.samples, options);
  std::string header;
  const auto rows = readCsv(dir.file("psd.csv"), header);
  EXPECT_EQ(header, "frequency,power");
  ASSERT_EQ(rows.size(), 51u);
  // The sum over segments may be split differently between the CLI's threads and ours.
  double maxAbs = 0.0;
  for (double v : read.samples) maxAbs = std::max(maxAbs, std::fabs(v));
  const double bound = spectrumAgreementBound(options, maxAbs, read.samples.size());
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k][0], want.frequency[k]);  // shortest round-trip text: the same doubles
    EXPECT_NEAR(rows[k][1], want.power[k], bound);
  }
  EXPECT_EQ(rows[50][0], 4000.0);

  ASSERT_EQ(runCli("spectrum " + dir.file("in.txt") + " --segment 100 --engine cpu -o " + dir.file("psd.npy"), dir).exitCode, 0);
  const std::string npy = test::readFile(dir.file("psd.npy"));
  EXPECT_NE(npy.find("'shape': (51, 2)"), std::string::npos);
  WelchOptions perSampleOptions;  // Hann, no rate
  perSampleOptions.segment = 100;
  const Spectrum perSample = welch(read.samples, perSampleOptions);
  const std::size_t data = npy.size() - 51 * 2 * sizeof(double);
  double last[2];
  std::memcpy(last, npy.data() + data + 50 * 2 * sizeof(double), sizeof last);
  EXPECT_EQ(last[0], 0.5);  // cycles per sample without a rate
  EXPECT_NEAR(last[1], perSample.power[50], spectrumAgreementBound(perSampleOptions, maxAbs, read.samples.size()));
}

TEST(CliSpectrum, TakesTheWavFilesRate) {
  test::TempDir dir;
  WriteOptions wav;
  wav.sampleRate = 44100.0;
  writeSignal(dir.file("in.wav"), std::vector<double>(1000, 0.25), wav);
  ASSERT_EQ(runCli("spectrum " + dir.file("in.wav") + " --segment 10 -o " + dir.file("psd.csv"), dir).exitCode, 0);
  std::string header;
  EXPECT_EQ(readCsv(dir.file("psd.csv"), header).back()[0], 22050.0);
}

TEST(CliSpectrum, BadInputNamesTheOptionAndTheAllowedRange) {
  test::TempDir dir;
  writeSignal(dir.file("in.txt"), std::vector<double>(100, 1.0));
  const std::string in = "spectrum " + dir.file("in.txt") + " -o " + dir.file("psd.csv") + " ";
  const auto expectUsage = [&](const std::string& options, const std::string& message) {
    const Outcome o = runCli(in + options, dir);
    EXPECT_EQ(o.exitCode, 2) << options;
    EXPECT_NE(o.err.find(message), std::string::npos) << options << ": " << o.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("psd.csv"))) << options;
  };
  expectUsage("", "siglab-cli spectrum: --segment: the segment must be 1 to 100 samples (the signal's length), got 256");
  expectUsage("--segment 50 --overlap 50",
              "siglab-cli spectrum: --overlap: the overlap must be 0 to 49 samples (less than the segment), got 50");
  expectUsage("--segment 50 --rate 0", "--rate: must be a finite number of Hz greater than 0, got \"0\"");
  expectUsage("--segment 50 --rate -8000", "--rate: must be a finite number of Hz greater than 0, got \"-8000\"");
  expectUsage("--segment 50 --rate inf", "--rate: must be a finite number of Hz greater than 0, got \"inf\"");
  expectUsage("--segment 50 --rate nan", "--rate: must be a finite number of Hz greater than 0, got \"nan\"");
  expectUsage("--segment 50 --window kaiser",
              "--window: must be one of \"hann\", \"hamming\", \"blackman\", \"boxcar\", got \"kaiser\"");
  const Outcome gpu = runCli(in + "--segment 50 --engine gpu", dir);
  if (gpu.exitCode == 2) {
    EXPECT_NE(gpu.err.find("siglab-cli spectrum: --engine gpu: no GPU can run it here ("), std::string::npos) << gpu.err;
    EXPECT_NE(gpu.err.find("); allowed here: auto, cpu"), std::string::npos) << gpu.err;
  } else {
    EXPECT_EQ(gpu.exitCode, 0) << gpu.err;  // a machine with a GPU
    std::filesystem::remove(dir.file("psd.csv"));
  }
  test::writeFile(dir.file("nan.txt"), "1\n2\nnan\n4\n");
  const Outcome nan = runCli("spectrum " + dir.file("nan.txt") + " --segment 2 -o " + dir.file("psd.csv"), dir);
  EXPECT_EQ(nan.exitCode, 3);
  EXPECT_NE(nan.err.find("nan.txt:3:1: "), std::string::npos) << nan.err;
  const Outcome allowed =
      runCli("spectrum " + dir.file("nan.txt") + " --segment 2 --allow-nonfinite -o " + dir.file("psd.csv"), dir);
  EXPECT_EQ(allowed.exitCode, 3);
  EXPECT_NE(allowed.err.find("nan.txt: sample 3 is nan; the spectrum needs finite samples"), std::string::npos) << allowed.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("psd.csv")));
}

TEST(CliResponse, WritesTheFiltersResponseAsFreqzDoes) {
  test::TempDir dir;
  const Outcome o = runCli("response --gaussian 2 --rate 1000 -n 64 -o " + dir.file("r.csv"), dir);
  ASSERT_EQ(o.exitCode, 0) << o.err;
  std::string header;
  const auto rows = readCsv(dir.file("r.csv"), header);
  EXPECT_EQ(header, "frequency,magnitude_db,phase_rad");
  ASSERT_EQ(rows.size(), 64u);
  const FrequencyResponse want = firResponse(makeGaussianFilter(2.0).taps, 64, 1000.0);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    EXPECT_EQ(rows[k][0], want.frequency[k]);
    EXPECT_EQ(rows[k][1], want.magnitudeDb()[k]);
    EXPECT_EQ(rows[k][2], want.phase()[k]);
  }
  EXPECT_EQ(rows[63][0], 1000.0 * 63 / 128);

  ASSERT_EQ(runCli("response -o " + dir.file("d.csv"), dir).exitCode, 0);  // the mean of 5, 512 points
  const auto mean = readCsv(dir.file("d.csv"), header);
  ASSERT_EQ(mean.size(), 512u);
  EXPECT_EQ(mean[0][1], 0.0);
  EXPECT_EQ(mean[256][0], 0.25);

  const Outcome even = runCli("response --window 4 -o " + dir.file("e.csv"), dir);
  EXPECT_EQ(even.exitCode, 2);
  EXPECT_NE(even.err.find("siglab-cli response: --window W must be odd, got 4"), std::string::npos) << even.err;
  EXPECT_EQ(runCli("response -n 0 -o " + dir.file("e.csv"), dir).exitCode, 2);
  EXPECT_EQ(runCli("response --rate 0 -o " + dir.file("e.csv"), dir).exitCode, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("e.csv")));
}

TEST(CliRate, EveryReadingCommandTakesARateAndRefusesABadOne) {
  test::TempDir dir;
  writeSignal(dir.file("in.txt"), std::vector<double>{1, 2, 3, 4, 5});
  const Outcome bad = runCli("stats " + dir.file("in.txt") + " --rate 0", dir);
  EXPECT_EQ(bad.exitCode, 2);
  EXPECT_NE(bad.err.find("--rate: must be a finite number of Hz greater than 0, got \"0\""), std::string::npos) << bad.err;
  EXPECT_EQ(runCli("stats " + dir.file("in.txt") + " --rate 100", dir).exitCode, 0);
  const Outcome filter = runCli("compare " + dir.file("in.txt") + " --rate 22050 --window 1 -b cpu-serial -o " +
                                    dir.file("out.wav") + " --report " + dir.file("report.json"), dir);
  ASSERT_EQ(filter.exitCode, 0) << filter.err;
  EXPECT_EQ(readSignal(dir.file("out.wav")).sampleRate, 22050.0);  // the rate given travels to the WAV written
  EXPECT_NE(test::readFile(dir.file("report.json")).find("\"sample_rate_hz\": 22050.0"), std::string::npos);
}

}  // namespace
}  // namespace siglab
