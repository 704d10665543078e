// --devices on the commands that run GPU engines: the list is read and checked before any work,
// and a run on a device list gives the same result file as one without it.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "siglab/cuda_backends.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Outcome = test::CliOutcome;
using test::runCli;

TEST(CliDevices, ABadListIsAUsageErrorNamingTheOptionAndTouchesNoOutput) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n");
  for (const char* bad : {"0,", "x", "-1", "1;2"}) {
    for (const char* command : {"filter", "compare"}) {
      const Outcome o = runCli(std::string(command) + " " + dir.file("in.txt") + " -o " + dir.file("r.txt") +
                                " --devices '" + bad + "'",
                            dir);
      EXPECT_EQ(o.exitCode, 2) << command << " " << bad;
      EXPECT_NE(o.err.find("--devices must be all or GPU numbers separated by commas (such as 0,1), not \"" +
                           std::string(bad) + "\""),
                std::string::npos)
          << o.err;
      EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt")));
    }
  }
  const int gpus = probeDevices().front().index < 0 ? 0 : static_cast<int>(probeDevices().size());
  if (gpus > 0) {
    const Outcome o = runCli("filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --devices " +
                              std::to_string(gpus),
                          dir);
    EXPECT_EQ(o.exitCode, 2);
    EXPECT_NE(o.err.find("which does not exist"), std::string::npos) << o.err;
  }
}

TEST(CliDevices, ASplitRunWritesTheSameResultAsOneDevice) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 100003 --seed 11 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string input = dir.file("in.txt") + " --window 9 --mode wrap";
  // Without a GPU the list is still read, and every engine that can run does.
  const Outcome compared = runCli("compare " + input + " --backend all --repeat 1 --devices 0,0", dir);
  ASSERT_EQ(compared.exitCode, 0) << compared.err;
  if (!probeDevices().front().available) GTEST_SKIP() << "no GPU: the split's bits are checked with a GPU only";
  for (const char* engine : {"gpu-global", "gpu-constant", "gpu-shared", "gpu-tuned"}) {
    const Outcome one = runCli("filter " + input + " --engine " + engine + " -o " + dir.file("one.txt"), dir);
    ASSERT_EQ(one.exitCode, 0) << one.err;
    for (const char* devices : {"0,0", "all"}) {
      const Outcome split = runCli("filter " + input + " --engine " + engine + " -o " + dir.file("split.txt") +
                                    " --devices " + devices,
                                dir);
      ASSERT_EQ(split.exitCode, 0) << split.err;
      EXPECT_EQ(test::readFile(dir.file("one.txt")), test::readFile(dir.file("split.txt"))) << engine << " " << devices;
    }
  }
}

// The kinds (--median, --butter) and the spectrum read --devices too, before any work.
TEST(CliDevices, TheKindsAndTheSpectrumCheckTheListBeforeAnyWork) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n4\n5\n6\n7\n8\n");
  for (const std::string command : {"filter IN --median 3", "compare IN --median 3", "filter IN --butter 2,0.2",
                                    "compare IN --butter 2,0.2 --zero-phase", "spectrum IN --segment 4"}) {
    std::string line = command;
    line.replace(line.find("IN"), 2, dir.file("in.txt"));
    const Outcome o = runCli(line + " -o " + dir.file("r.txt") + " --devices 0,x", dir);
    EXPECT_EQ(o.exitCode, 2) << command;
    EXPECT_NE(o.err.find("--devices must be all or GPU numbers separated by commas (such as 0,1), not \"0,x\""),
              std::string::npos)
        << command << ": " << o.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("r.txt"))) << command;
  }
}

TEST(CliDevices, MedianScanAndSpectrumSplitWriteTheSameFileAsOneDevice) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 200003 --seed 5 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string input = dir.file("in.txt");
  // Without a GPU the list is still read and the spectrum runs on the CPU.
  const Outcome cpu = runCli("spectrum " + input + " --segment 1000 -o " + dir.file("s.csv") + " --devices 0,0", dir);
  ASSERT_EQ(cpu.exitCode, 0) << cpu.err;
  if (!probeDevices().front().available) GTEST_SKIP() << "no GPU: the split's bits are checked with a GPU only";
  for (const std::string& run : {"filter " + input + " --median 101 --mode reflect --engine gpu-median",
                                "filter " + input + " --butter 4,0.1 --zero-phase --engine gpu-sos-scan",
                                "spectrum " + input + " --segment 1000 --engine gpu"}) {
    const std::string ext = run.starts_with("spectrum") ? ".csv" : ".txt";
    const Outcome one = runCli(run + " -o " + dir.file("one" + ext), dir);
    ASSERT_EQ(one.exitCode, 0) << one.err;
    for (const char* devices : {"0,0", "all"}) {
      const Outcome split = runCli(run + " -o " + dir.file("split" + ext) + " --devices " + devices, dir);
      ASSERT_EQ(split.exitCode, 0) << split.err;
      EXPECT_EQ(test::readFile(dir.file("one" + ext)), test::readFile(dir.file("split" + ext))) << run << " " << devices;
    }
  }
}

}  // namespace
}  // namespace siglab
