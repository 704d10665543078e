// The CLI's contract, checked by running the real binary.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/text_format.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Outcome = test::CliOutcome;
using test::runCli;

TEST(Cli, GenerateIsDeterministic) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 1001 --seed 7 -o " + dir.file("a.txt"), dir).exitCode, 0);
  ASSERT_EQ(runCli("generate -n 1001 --seed 7 -o " + dir.file("b.txt"), dir).exitCode, 0);
  ASSERT_EQ(runCli("generate -n 1001 --seed 8 -o " + dir.file("c.txt"), dir).exitCode, 0);
  const std::string a = test::readFile(dir.file("a.txt"));
  EXPECT_EQ(a, test::readFile(dir.file("b.txt")));
  EXPECT_NE(a, test::readFile(dir.file("c.txt")));
  EXPECT_EQ(readTextSignal(dir.file("a.txt")).size(), 1001u);
}

TEST(Cli, CompareWritesTheReferenceResultByteForByte) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 5003 --seed 3 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const Outcome o = runCli("compare " + dir.file("in.txt") + " -o " + dir.file("result.txt") +
                               " --window 7 --backend all --repeat 2 --report " + dir.file("report.json"),
                           dir);
  ASSERT_EQ(o.exitCode, 0) << o.out << o.err;
  const std::vector<double> in = readTextSignal(dir.file("in.txt"));
  std::vector<double> expected(in.size());
  filterSerial(in, makeMeanFilter(7), expected);
  std::string text;
  for (double v : expected) {
    char line[512];
    std::snprintf(line, sizeof line, "%2.16f\n", v);
    text += line;
  }
  EXPECT_TRUE(test::readFile(dir.file("result.txt")) == text);
  for (const char* name :
       {"cpu-serial", "cpu-parallel", "cpu-running", "cpu-fft", "gpu-global", "gpu-constant", "gpu-shared", "gpu-tuned",
        "gpu-fft", "gpu-median", "gpu-sos-scan"}) {
    EXPECT_NE(o.out.find(name), std::string::npos) << "table lacks " << name;
  }
  ASSERT_EQ(runCli("compare " + dir.file("in.txt") + " --window 7 --backend cpu-serial,cpu-parallel --repeat 1 "
                   "--report " + dir.file("report.CSV"), dir).exitCode, 0);
  const std::string csv = test::readFile(dir.file("report.CSV"));
  EXPECT_TRUE(csv.starts_with("input,samples,window,mode,dtype,repeat,name,status")) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 3);  // a header and one line per engine
  const auto report = nlohmann::json::parse(test::readFile(dir.file("report.json")));
  EXPECT_EQ(report["samples"], 5003);
  EXPECT_EQ(report["window"], 7);
  ASSERT_EQ(report["backends"].size(), 11u);  // gpu-median and gpu-sos-scan listed, unavailable for taps
  for (const auto& b : report["backends"]) {
    if (b["status"] == "ok") {
      EXPECT_EQ(b["agrees"], true) << b.dump();
      // Only cpu-running (the O(N) running sum) and the FFT engines may differ in the last bits (within their tolerance).
      if (b["name"] != "cpu-running" && b["name"] != "cpu-fft" && b["name"] != "gpu-fft") {
        EXPECT_EQ(b["bit_identical"], true) << b.dump();
      }
    } else {
      EXPECT_EQ(b["status"], "unavailable") << b.dump();
      EXPECT_FALSE(b["message"].get<std::string>().empty());
    }
  }
}

TEST(Cli, BundledSampleRuns) {
  test::TempDir dir;
  const Outcome o = runCli(std::string("filter ") + SIGLAB_SAMPLE_PATH + " -o " + dir.file("result.txt"), dir);
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_NE(o.out.find("filtered by"), std::string::npos) << o.out;
  const Outcome c = runCli(std::string("compare ") + SIGLAB_SAMPLE_PATH + " --repeat 1", dir);
  EXPECT_EQ(c.exitCode, 0) << c.err;
  EXPECT_NE(c.out.find("cpu-serial"), std::string::npos);
}

std::string seedText(const std::vector<double>& values) {
  std::string text;
  appendSeedFormat(values, text);
  return text;
}

TEST(Cli, FilterAppliesOneEngineSaysWhichAndWritesItsOwnResult) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 200003 --seed 4 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::vector<double> in = readTextSignal(dir.file("in.txt"));

  const Outcome automatic = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("auto.txt"), dir);
  ASSERT_EQ(automatic.exitCode, 0) << automatic.err;
  EXPECT_NE(automatic.err.find("engine: "), std::string::npos) << automatic.err;
  EXPECT_NE(automatic.err.find("verify: "), std::string::npos) << automatic.err;
  EXPECT_NE(automatic.err.find("all bit-identical"), std::string::npos) << automatic.err;
  EXPECT_EQ(automatic.out.find("cpu-serial"), std::string::npos) << "apply is no benchmark: " << automatic.out;
  std::vector<double> mean5(in.size());
  filterSerial(in, makeMeanFilter(5), mean5);
  EXPECT_TRUE(test::readFile(dir.file("auto.txt")) == seedText(mean5));  // W = 5 auto: an exact engine

  // A named engine's own result, not cpu-serial's: cpu-running's running sums.
  const Outcome running = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("run.txt") +
                                     " --engine cpu-running --window 51 --mode mirror",
                                 dir);
  ASSERT_EQ(running.exitCode, 0) << running.err;
  EXPECT_NE(running.err.find("within the engine's stated tolerance"), std::string::npos) << running.err;
  std::vector<double> runningSums(in.size());
  filterRunning(in, makeMeanFilter(51, BoundaryMode::Mirror), runningSums);
  EXPECT_TRUE(test::readFile(dir.file("run.txt")) == seedText(runningSums));

  const Outcome unverified = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("u.txt") + " --verify 0", dir);
  ASSERT_EQ(unverified.exitCode, 0) << unverified.err;
  EXPECT_EQ(unverified.err.find("verify: "), std::string::npos) << unverified.err;
  EXPECT_TRUE(test::readFile(dir.file("u.txt")) == seedText(mean5));
}

TEST(Cli, FilterRefusesSeveralEnginesAndEnginesThatCannotRunTheSpec) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n");
  for (const char* engines : {"all", "cpu-serial,cpu-parallel"}) {
    const Outcome o = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --engine " + engines, dir);
    EXPECT_EQ(o.exitCode, 2) << engines;
    EXPECT_NE(o.err.find("siglab-cli compare"), std::string::npos) << o.err;
  }
  const Outcome gauss = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") +
                                   " --engine cpu-running --gaussian 1.5",
                               dir);
  EXPECT_EQ(gauss.exitCode, 2);
  EXPECT_NE(gauss.err.find("cpu-running cannot run this filter here: cpu-running needs uniform taps"),
            std::string::npos)
      << gauss.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt")));
}

TEST(Cli, MalformedInputNamesFileAndLineAndTouchesNoOutput) {
  test::TempDir dir;
  test::writeFile(dir.file("bad.txt"), "1.0\n2.0\n3.0x\n");
  test::writeFile(dir.file("result.txt"), "precious\n");
  const Outcome o = runCli("filter " + dir.file("bad.txt") + " -o " + dir.file("result.txt"), dir);
  EXPECT_EQ(o.exitCode, 3);
  EXPECT_NE(o.err.find("bad.txt:3:1: expected a number, found \"3.0x\""), std::string::npos) << o.err;
  EXPECT_EQ(test::readFile(dir.file("result.txt")), "precious\n");

  const Outcome fresh = runCli("filter " + dir.file("bad.txt") + " -o " + dir.file("new.txt"), dir);
  EXPECT_EQ(fresh.exitCode, 3);
  EXPECT_FALSE(std::filesystem::exists(dir.file("new.txt")));
}

TEST(Cli, EmptyAndMissingInputsAreInputErrors) {
  test::TempDir dir;
  test::writeFile(dir.file("empty.txt"), "");
  const Outcome empty = runCli("filter " + dir.file("empty.txt") + " -o " + dir.file("r.txt"), dir);
  EXPECT_EQ(empty.exitCode, 3);
  EXPECT_NE(empty.err.find("empty.txt: the file is empty"), std::string::npos) << empty.err;
  const Outcome missing = runCli("filter " + dir.file("nope.txt") + " -o " + dir.file("r.txt"), dir);
  EXPECT_EQ(missing.exitCode, 3);
  EXPECT_NE(missing.err.find("nope.txt: cannot open"), std::string::npos) << missing.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt")));
}

TEST(Cli, UsageErrorsExitTwo) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n");
  EXPECT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --window 4", dir).exitCode, 2);
  const Outcome unknown = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --backend gpu-magic", dir);
  EXPECT_EQ(unknown.exitCode, 2);
  EXPECT_NE(unknown.err.find("unknown engine \"gpu-magic\""), std::string::npos) << unknown.err;
  const Outcome compareUnknown = runCli("compare " + dir.file("in.txt") + " --backend cpu-serial,gpu-magic", dir);
  EXPECT_EQ(compareUnknown.exitCode, 2);
  EXPECT_NE(compareUnknown.err.find("unknown engine \"gpu-magic\"; known: cpu-serial"), std::string::npos)
      << compareUnknown.err;
  EXPECT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --repeat 3", dir).exitCode, 2);
  EXPECT_EQ(runCli("filter " + dir.file("in.txt"), dir).exitCode, 2);  // no -o
  EXPECT_EQ(runCli("frobnicate", dir).exitCode, 2);
  EXPECT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --mode sideways", dir).exitCode, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt")));
}

TEST(Cli, FilterReadsAColumnOfACsvAndWritesByExtension) {
  test::TempDir dir;
  test::writeFile(dir.file("in.csv"), "time,volts\n0,1\n1,2\n2,3\n3,4\n4,5\n");
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n4\n5\n");
  const std::string common = " --window 3 --backend cpu-serial";
  ASSERT_EQ(runCli("filter " + dir.file("in.csv") + " --column 2 --skip-header -o " + dir.file("a.npy") + common, dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("b.txt") + common, dir).exitCode, 0);
  EXPECT_EQ(readSignal(dir.file("a.npy")).samples, readTextSignal(dir.file("b.txt")));
  EXPECT_TRUE(test::readFile(dir.file("a.npy")).starts_with("\x93NUMPY"));
}

TEST(Cli, FilterReadsRawWithAnOffsetAndWav) {
  test::TempDir dir;
  const std::vector<float> samples = {1.0f, 2.0f, 4.0f, 8.0f};
  test::writeFile(dir.file("in.f32"), "HDR" + std::string(reinterpret_cast<const char*>(samples.data()), 16));
  const Outcome raw = runCli("filter " + dir.file("in.f32") + " --raw f32 --offset 3 --window 3 -o " + dir.file("r.txt"), dir);
  ASSERT_EQ(raw.exitCode, 0) << raw.err;
  std::vector<double> expected(4);
  filterSerial(std::vector<double>{1.0, 2.0, 4.0, 8.0}, makeMeanFilter(3), expected);
  EXPECT_EQ(readTextSignal(dir.file("r.txt")).size(), 4u);
  EXPECT_NEAR(readTextSignal(dir.file("r.txt"))[1], expected[1], 1e-15);

  WriteOptions wav;
  wav.sampleRate = 16000;
  writeSignal(dir.file("in.wav"), std::vector<double>{0.5, -0.5, 0.25}, wav);
  const Outcome o = runCli("filter " + dir.file("in.wav") + " --window 1 -o " + dir.file("out.wav"), dir);
  ASSERT_EQ(o.exitCode, 0) << o.err;
  const Signal back = readSignal(dir.file("out.wav"));
  EXPECT_EQ(back.samples, (std::vector<double>{0.5, -0.5, 0.25}));
  EXPECT_EQ(back.sampleRate, 16000.0);
}

TEST(Cli, InputOptionErrors) {
  test::TempDir dir;
  test::writeFile(dir.file("in.csv"), "a,b\n1,2\n3\n");
  const Outcome column = runCli("filter " + dir.file("in.csv") + " --column 2 --skip-header -o " + dir.file("r.txt"), dir);
  EXPECT_EQ(column.exitCode, 3);
  EXPECT_NE(column.err.find("in.csv:3:1: expected at least 2 columns separated by ',', found 1"), std::string::npos) << column.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt")));
  EXPECT_EQ(runCli("filter " + dir.file("in.csv") + " --offset 4 -o " + dir.file("r.txt"), dir).exitCode, 2);
  EXPECT_EQ(runCli("filter " + dir.file("in.csv") + " --raw f16 -o " + dir.file("r.txt"), dir).exitCode, 2);
  EXPECT_EQ(runCli("filter " + dir.file("in.csv") + " --column 0 -o " + dir.file("r.txt"), dir).exitCode, 2);
  test::writeFile(dir.file("nan.txt"), "1\nnan\n3\n");
  EXPECT_EQ(runCli("filter " + dir.file("nan.txt") + " -o " + dir.file("r.txt"), dir).exitCode, 3);
  const Outcome allowed = runCli("filter " + dir.file("nan.txt") + " --allow-nonfinite --window 1 -b cpu-serial -o " + dir.file("r.txt"), dir);
  EXPECT_EQ(allowed.exitCode, 0) << allowed.err;
  EXPECT_EQ(test::readFile(dir.file("r.txt")), "1.0000000000000000\nnan\n3.0000000000000000\n");
}

// --decimal , reads "1,5;2,5" whole, in memory and streamed, on every command that reads text;
// without it the field is an error naming its line and column (issue 24: its integer part was read).
TEST(Cli, DecimalCommasAreReadWithTheOptionAndAnErrorWithout) {
  test::TempDir dir;
  test::writeFile(dir.file("in.csv"), "zeit;wert\n0,5;1,5\n1;-2,25\n1,5;4\n");
  const std::string in = dir.file("in.csv");
  const Outcome stats = runCli("stats -q " + in + " --skip-header --column 2 --decimal , --json", dir);
  ASSERT_EQ(stats.exitCode, 0) << stats.err;
  EXPECT_EQ(nlohmann::json::parse(stats.out)["sum"], 3.25);
  for (const char* stream : {"never", "always"}) {
    const Outcome filter = runCli("filter -q " + in + " --skip-header --column 2 --decimal , -w 1 --stream " + stream +
                                      " -o " + dir.file("out.txt"), dir);
    ASSERT_EQ(filter.exitCode, 0) << filter.err;
    EXPECT_EQ(readTextSignal(dir.file("out.txt")), (std::vector<double>{1.5, -2.25, 4.0})) << stream;
  }
  const Outcome cut = runCli("stats -q " + in + " --skip-header --column 1", dir);
  EXPECT_EQ(cut.exitCode, 3);
  EXPECT_NE(cut.err.find("in.csv:2:1: expected a number, found \"0,5\" (a decimal comma? read it with --decimal ,)"),
            std::string::npos) << cut.err;
  EXPECT_EQ(runCli("stats " + in + " --decimal ';'", dir).exitCode, 2);
}

TEST(Cli, DevicesAlwaysAnswers) {
  test::TempDir dir;
  const Outcome o = runCli("devices", dir);
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_TRUE(o.out.find("GPU 0:") != std::string::npos || o.out.find("no GPU: ") != std::string::npos) << o.out;
}

TEST(Cli, StatsPrintsOneNameValueALineOrJson) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n4\n");
  const Outcome o = runCli("stats " + dir.file("in.txt"), dir);
  ASSERT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(o.out,
            "count: 4\nsum: 10\nmean: 2.5\nsumsq: 30\nrms: 2.7386127875258306\nvariance: 1.25\n"
            "std: 1.1180339887498949\nmin: 1\nmin_index: 0\nmax: 4\nmax_index: 3\n");
  const Outcome json = runCli("stats " + dir.file("in.txt") + " --range 1:3 --json", dir);
  ASSERT_EQ(json.exitCode, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["count"], 2);
  EXPECT_EQ(j["sum"], 5.0);
  EXPECT_EQ(j["min_index"], 1);
  EXPECT_EQ(j["max_index"], 2);
  EXPECT_EQ(runCli("stats " + dir.file("in.txt") + " --range 2:", dir).out.substr(0, 9), "count: 2\n");
}

// Finite data gives finite statistics (issue 24: 1e308, 1e308 gave mean inf, std nan), and JSON
// writes what is not finite as "inf", "-inf" or "nan" (it wrote null).
TEST(Cli, StatsOfExtremeDataAreFiniteAndJsonNamesNonFiniteValues) {
  test::TempDir dir;
  test::writeFile(dir.file("big.txt"), "1e308\n1e308\n");
  const Outcome big = runCli("stats -q " + dir.file("big.txt") + " --json", dir);
  ASSERT_EQ(big.exitCode, 0) << big.err;
  const auto b = nlohmann::json::parse(big.out);
  EXPECT_EQ(b["mean"], 1e308);
  EXPECT_EQ(b["std"], 0.0);
  EXPECT_EQ(b["variance"], 0.0);
  EXPECT_EQ(b["rms"], 1e308);
  EXPECT_EQ(b["sum"], "inf");  // 2e308 is beyond float64
  test::writeFile(dir.file("odd.txt"), "1\n-inf\nnan\n");
  const Outcome odd = runCli("stats -q " + dir.file("odd.txt") + " --allow-nonfinite --json", dir);
  ASSERT_EQ(odd.exitCode, 0) << odd.err;
  const auto o = nlohmann::json::parse(odd.out);
  EXPECT_EQ(o["mean"], "nan");
  EXPECT_EQ(o["min"], "nan");
  EXPECT_EQ(o["sumsq"], "nan");
  test::writeFile(dir.file("inf.txt"), "1\n-inf\n");
  const auto i = nlohmann::json::parse(runCli("stats -q " + dir.file("inf.txt") + " --allow-nonfinite --json", dir).out);
  EXPECT_EQ(i["sum"], "-inf");
  EXPECT_EQ(i["sumsq"], "inf");
}

// A period too short for its phase to be a number is refused before any file is touched (issue
// 24: --period 1e-310 wrote "-nan" lines); a short one that works gives finite samples.
TEST(Cli, GenerateRefusesAPeriodThatMakesNonFiniteSamples) {
  test::TempDir dir;
  const Outcome tiny = runCli("generate -n 5 --period 1e-310 -o " + dir.file("g.txt"), dir);
  EXPECT_EQ(tiny.exitCode, 2);
  EXPECT_NE(tiny.err.find("--period 1e-310: is too short for 5 samples"), std::string::npos) << tiny.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("g.txt")));
  ASSERT_EQ(runCli("generate -n 1000 --period 1e-300 -o " + dir.file("g.txt"), dir).exitCode, 0);
  for (double v : readTextSignal(dir.file("g.txt"))) ASSERT_TRUE(std::isfinite(v));
}

// Values beyond float32 round-trip through WAV (issue 24: 1e300 was written as inf, exit 0; then
// streamed, refused): as a 64-bit float WAV file, streamed or not, the same bytes.
TEST(Cli, WavOutputOfValuesBeyondFloat32) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "2\n-2.5\n1e300\n0.1\n-1e300\n");
  const Outcome memory = runCli("filter -q " + dir.file("in.txt") + " -w 1 --stream never -o " + dir.file("out.wav"), dir);
  ASSERT_EQ(memory.exitCode, 0) << memory.err;
  EXPECT_EQ(readSignal(dir.file("out.wav")).samples, (std::vector<double>{2, -2.5, 1e300, 0.1, -1e300}));
  test::writeFile(dir.file("old.wav"), "old");
  const Outcome streamed = runCli("filter -q " + dir.file("in.txt") +
                                      " -w 1 --stream always --stream-block 1 -o " + dir.file("old.wav"), dir);
  ASSERT_EQ(streamed.exitCode, 0) << streamed.err;
  EXPECT_EQ(test::readFile(dir.file("old.wav")), test::readFile(dir.file("out.wav")));
}

TEST(Cli, StatsRejectsBadRangesAndInputs) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n4\n");
  const Outcome past = runCli("stats " + dir.file("in.txt") + " --range 2:9", dir);
  EXPECT_EQ(past.exitCode, 2);
  EXPECT_NE(past.err.find("range end 9 is past the signal's 4 samples"), std::string::npos) << past.err;
  EXPECT_EQ(runCli("stats " + dir.file("in.txt") + " --range 3:1", dir).exitCode, 2);
  EXPECT_EQ(runCli("stats " + dir.file("in.txt") + " --range 1-3", dir).exitCode, 2);
  EXPECT_EQ(runCli("stats " + dir.file("nope.txt"), dir).exitCode, 3);
}

TEST(Cli, FilterTakesGaussianOrCustomTaps) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 3001 --seed 5 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const Outcome gauss = runCli("compare " + dir.file("in.txt") + " -o " + dir.file("g.txt") +
                                   " --gaussian 1.5 --mode reflect --backend all --repeat 1 --report " +
                                   dir.file("g.json"),
                               dir);
  ASSERT_EQ(gauss.exitCode, 0) << gauss.out << gauss.err;
  const auto report = nlohmann::json::parse(test::readFile(dir.file("g.json")));
  EXPECT_EQ(report["window"], 13);  // 2 * int(4 * 1.5 + 0.5) + 1, as scipy
  EXPECT_EQ(report["uniform_taps"], false);
  for (const auto& b : report["backends"]) {
    if (b["name"] == "cpu-running") {
      EXPECT_EQ(b["status"], "unavailable");  // needs uniform taps
    }
    if (b["name"] == "cpu-parallel") {
      EXPECT_EQ(b["bit_identical"], true);
    }
  }

  test::writeFile(dir.file("taps.txt"), "0.125\n-0.5\n2\n");
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("t.txt") + " --taps " + dir.file("taps.txt") +
                       " --engine cpu-parallel",
                   dir)
                .exitCode,
            0);
  const std::vector<double> in = readTextSignal(dir.file("in.txt"));
  std::vector<double> expected(in.size());
  filterSerial(in, FilterSpec{{0.125, -0.5, 2}, BoundaryMode::Zero}, expected);
  std::string expectedText;
  appendSeedFormat(expected, expectedText);
  EXPECT_TRUE(test::readFile(dir.file("t.txt")) == expectedText);

  test::writeFile(dir.file("even.txt"), "0.5\n0.5\n");
  const Outcome even = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("e.txt") + " --taps " +
                                  dir.file("even.txt"),
                              dir);
  EXPECT_EQ(even.exitCode, 3);
  EXPECT_NE(even.err.find("even.txt: expected an odd number of taps"), std::string::npos) << even.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("e.txt")));
  EXPECT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("e.txt") + " --taps " + dir.file("taps.txt") +
                       " --window 5",
                   dir)
                .exitCode,
            2);
}

TEST(Cli, FilterRunsInFloat32) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 2001 --seed 9 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const Outcome o = runCli("compare " + dir.file("in.txt") + " --dtype f32 --window 9 --mode wrap --backend all "
                                                         "--repeat 1 --report " + dir.file("r.json"),
                           dir);
  ASSERT_EQ(o.exitCode, 0) << o.out << o.err;
  const auto report = nlohmann::json::parse(test::readFile(dir.file("r.json")));
  EXPECT_EQ(report["dtype"], "f32");
  const Outcome applied = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") +
                                     " --dtype f32 --window 9 --mode wrap",
                                 dir);
  ASSERT_EQ(applied.exitCode, 0) << applied.err;
  const std::vector<double> wide = readTextSignal(dir.file("in.txt"));
  const std::vector<float> in(wide.begin(), wide.end());
  std::vector<float> expected(in.size());
  filterSerial(in, makeMeanFilter(9, BoundaryMode::Wrap), expected);
  std::string expectedText;
  appendSeedFormat(std::vector<double>(expected.begin(), expected.end()), expectedText);
  EXPECT_TRUE(test::readFile(dir.file("r.txt")) == expectedText);
  EXPECT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("x.txt") + " --dtype f16", dir).exitCode, 2);
  test::writeFile(dir.file("huge.txt"), "1\n# too big for float32\n1e300\n");
  const Outcome huge = runCli("filter " + dir.file("huge.txt") + " -o " + dir.file("x.txt") + " --dtype f32", dir);
  EXPECT_EQ(huge.exitCode, 3);
  EXPECT_NE(huge.err.find("huge.txt: sample 2 (1e+300) is outside the float32 range"), std::string::npos) << huge.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("x.txt")));
}

TEST(Cli, ReducePrintsTheLadderOrWhyNot) {
  test::TempDir dir;
  const Outcome o = runCli(std::string("reduce ") + SIGLAB_SAMPLE_PATH + " --random-ints 12 --repeat 2", dir);
  ASSERT_EQ(o.exitCode, 0) << o.out << o.err;
  if (o.out.find("not run: ") != std::string::npos) return;  // no GPU here: the reason is printed
  for (const char* rung : {"neighbored", "interleaved", "unroll-8-last-warp", "complete-unroll", "warp-shuffle-16B",
                           "cub-device-reduce", "sum-of-squares"}) {
    EXPECT_NE(o.out.find(rung), std::string::npos) << o.out;
  }
  EXPECT_EQ(o.out.find("WRONG"), std::string::npos) << o.out;
}

TEST(Cli, LabReversePrintsTheLadderAndTheGpuRungsOrWhyNot) {
  test::TempDir dir;
  const Outcome o = runCli("lab reverse -n 1023 --repeat 2", dir);
  ASSERT_EQ(o.exitCode, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("reverse 1,023 int32"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("cpu-reverse-copy"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("WRONG"), std::string::npos) << o.out;
  if (o.out.find("GPU rungs not run: ") != std::string::npos) return;  // no GPU here: the reason is printed
  for (const char* rung : {"gpu-one-block", "gpu-global", "gpu-shared", "gpu-vector16", "d2d-copy", "load 100%"}) {
    EXPECT_NE(o.out.find(rung), std::string::npos) << o.out;
  }
}

TEST(Cli, LabMatmulPrintsTheLadderWithItsBound) {
  test::TempDir dir;
  const Outcome o = runCli("lab matmul --size 17,15,33 --repeat 1", dir);
  ASSERT_EQ(o.exitCode, 0) << o.out << o.err;
  for (const char* text : {"C (17 x 15) = A (17 x 33) B (33 x 15)", "cpu-serial", "cpu-blocked", "gamma_K", "GFLOP/s"}) {
    EXPECT_NE(o.out.find(text), std::string::npos) << o.out;
  }
  EXPECT_EQ(o.out.find("WRONG"), std::string::npos) << o.out;
  if (o.out.find("GPU rungs not run: ") != std::string::npos) return;
  for (const char* rung : {"gpu-naive", "gpu-tiled16", "gpu-double-buffered", "cublas-sgemm", "the original example's gpu-tiled16"}) {
    EXPECT_NE(o.out.find(rung), std::string::npos) << o.out;
  }
}

TEST(Cli, LabRejectsSizesOutsideTheirRange) {
  test::TempDir dir;
  for (const char* args : {"lab matmul --size 0,4,4", "lab matmul --size 4,4", "lab matmul --size 40000",
                           "lab matmul --size 4,x,4", "lab reverse -n 0", "lab reverse -n 2^32", "lab reverse -n -5"}) {
    const Outcome o = runCli(args, dir);
    EXPECT_EQ(o.exitCode, 2) << args << "\n" << o.out << o.err;
    EXPECT_NE(o.err.find("expected"), std::string::npos) << args << ": " << o.err;
  }
  EXPECT_NE(runCli("lab", dir).exitCode, 0);  // a ladder must be named
}

TEST(Cli, AGpuMemoryBudgetStillGivesTheReferenceBits) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 300001 --seed 5 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const Outcome o = runCli("compare " + dir.file("in.txt") + " -o " + dir.file("out.txt") +
                               " --backend gpu-tuned --gpu-memory-budget 1 --repeat 1",
                           dir);
  EXPECT_EQ(o.exitCode, 0) << o.out << o.err;  // 1 would mean gpu-tuned differed from cpu-serial
  EXPECT_EQ(o.out.find("FAILED"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace siglab
