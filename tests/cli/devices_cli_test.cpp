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

}  // namespace
}  // namespace siglab
