// The CLI's contract, checked by running the real binary.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "siglab/cpu_serial.hpp"
#include "siglab/text_format.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

struct Outcome {
  int exitCode = -1;
  std::string out;
  std::string err;
};

Outcome runCli(const std::string& args, const test::TempDir& dir) {
  const std::string outPath = dir.file("stdout.log"), errPath = dir.file("stderr.log");
  const std::string command = std::string(SIGLAB_CLI_PATH) + " " + args + " >" + outPath + " 2>" + errPath;
  const int status = std::system(command.c_str());
  Outcome outcome;
  outcome.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.out = test::readFile(outPath);
  outcome.err = test::readFile(errPath);
  return outcome;
}

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

TEST(Cli, FilterWritesTheReferenceResultByteForByte) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 5003 --seed 3 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const Outcome o = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("result.txt") +
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
  for (const char* name : {"cpu-serial", "gpu-global", "gpu-constant", "gpu-shared", "gpu-tuned"}) {
    EXPECT_NE(o.out.find(name), std::string::npos) << "table lacks " << name;
  }
  const auto report = nlohmann::json::parse(test::readFile(dir.file("report.json")));
  EXPECT_EQ(report["samples"], 5003);
  EXPECT_EQ(report["window"], 7);
  ASSERT_EQ(report["backends"].size(), 5u);
  for (const auto& b : report["backends"]) {
    if (b["status"] == "ok") {
      EXPECT_EQ(b["bit_identical"], true) << b.dump();
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
  EXPECT_NE(o.out.find("cpu-serial"), std::string::npos);
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
  EXPECT_NE(unknown.err.find("unknown backend \"gpu-magic\""), std::string::npos) << unknown.err;
  EXPECT_EQ(runCli("filter " + dir.file("in.txt"), dir).exitCode, 2);  // no -o
  EXPECT_EQ(runCli("frobnicate", dir).exitCode, 2);
  EXPECT_EQ(runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --mode sideways", dir).exitCode, 2);
  EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt")));
}

TEST(Cli, DevicesAlwaysAnswers) {
  test::TempDir dir;
  const Outcome o = runCli("devices", dir);
  EXPECT_EQ(o.exitCode, 0);
  EXPECT_TRUE(o.out.find("GPU 0:") != std::string::npos || o.out.find("no GPU: ") != std::string::npos) << o.out;
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

TEST(Cli, AGpuMemoryBudgetStillGivesTheReferenceBits) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 300001 --seed 5 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const Outcome o = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("out.txt") +
                               " --backend gpu-tuned --gpu-memory-budget 1 --repeat 1",
                           dir);
  EXPECT_EQ(o.exitCode, 0) << o.out << o.err;  // 1 would mean gpu-tuned differed from cpu-serial
  EXPECT_EQ(o.out.find("FAILED"), std::string::npos) << o.out;
}

}  // namespace
}  // namespace siglab
