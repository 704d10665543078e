// `filter --chain` and `--pipeline` through core's runPipeline: a chain is its stages run one after
// another, byte for byte; streamed it is the in-memory bytes for every block size; a chain that
// does not parse or cannot run on the signal is exit 2, naming the stage, before any output.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CliOutcome;
using test::runCli;

using test::writeInput;

using test::entriesIn;

TEST(ChainCli, AChainIsItsStagesRunOneAfterAnother) {
  const test::TempDir dir;
  const std::string in = writeInput(dir, 3000);
  const Outcome chain = runCli("filter " + in + " --chain \"butter 4,0.1,0.3,bandpass zero-phase; median 5; detrend\" -o " +
                                   dir.file("chain.npy"), dir);
  ASSERT_EQ(chain.exitCode, 0) << chain.err;
  EXPECT_NE(chain.err.find("stage 1 (butter): engine cpu-parallel ("), std::string::npos) << chain.err;
  EXPECT_NE(chain.err.find("stage 2 (median): verify: "), std::string::npos) << chain.err;
  EXPECT_NE(chain.err.find("stage 3 (detrend): engine "), std::string::npos) << chain.err;
  EXPECT_NE(chain.out.find("3000 samples through 3 stages"), std::string::npos) << chain.out;
  ASSERT_EQ(runCli("filter " + in + " -q --butter 4,0.1,0.3,bandpass --zero-phase -o " + dir.file("1.npy"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("1.npy") + " -q --median 5 -o " + dir.file("2.npy"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("2.npy") + " -q --chain detrend -o " + dir.file("3.npy"), dir).exitCode, 0);
  EXPECT_TRUE(test::readFile(dir.file("chain.npy")) == test::readFile(dir.file("3.npy")));
}

// Blocks of 1, the median's history (3), 7 and more than the signal; every stage with its own mode
// (wrap in the first: its tail is read ahead from the file); every input format, each into another
// output format.
TEST(ChainCli, StreamedIsTheInMemoryBytesForEveryBlockSize) {
  const test::TempDir dir;
  const std::string in = writeInput(dir, 300);
  const std::vector<double> x = readSignal(in).samples.toVector();
  writeSignal(dir.file("in.txt"), x);
  writeSignal(dir.file("in.wav"), x, WriteOptions{FileFormat::wav});
  writeSignal(dir.file("in.raw"), x);
  const std::string chain = " --chain \"mean 5 mode wrap; median 7 mode mirror; gaussian 1.5 mode nearest; "
                            "savgol 9,3 mode reflect\"";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {in, "out.txt"}, {dir.file("in.txt"), "out.npy"}, {dir.file("in.wav"), "out.wav"},
      {dir.file("in.raw") + " --raw f64", "out.raw"}};
  for (const auto& [input, out] : cases) {
    const Outcome memory = runCli("filter " + input + chain + " -q --stream never -o " + dir.file("memory-" + out), dir);
    ASSERT_EQ(memory.exitCode, 0) << memory.err;
    for (const int block : {1, 3, 7, 100000}) {
      SCOPED_TRACE(input + " -o " + out + ", blocks of " + std::to_string(block));
      const Outcome streamed = runCli("filter " + input + chain + " --stream always --stream-block " +
                                          std::to_string(block) + " -o " + dir.file(out), dir);
      ASSERT_EQ(streamed.exitCode, 0) << streamed.err;
      EXPECT_NE(streamed.err.find("stream: streamed block by block"), std::string::npos) << streamed.err;
      EXPECT_TRUE(test::readFile(dir.file(out)) == test::readFile(dir.file("memory-" + out)));
    }
  }
  // Auto streams an exact chain into a file; a Butterworth stage streams too, serially, and says so.
  const Outcome automatic = runCli("filter " + in + chain + " -o " + dir.file("auto.npy"), dir);
  EXPECT_NE(automatic.err.find("stream: streamed block by block with bounded memory, the same bits as in memory"),
            std::string::npos) << automatic.err;
  const Outcome sections = runCli("filter " + in + " --chain \"median 3; butter 2,0.2\" --stream always -o " +
                                      dir.file("s.npy"), dir);
  EXPECT_EQ(sections.exitCode, 0) << sections.err;
  EXPECT_NE(sections.err.find("stage 2 (butter) streams serially (unbounded history)"), std::string::npos) << sections.err;
}

TEST(ChainCli, APipelineFileIsTheSameChain) {
  const test::TempDir dir;
  const std::string in = writeInput(dir, 500);
  test::writeFile(dir.file("p.json"), R"({"siglab-pipeline": 1, "stages": [{"kind": "median", "window": 5, "mode": "reflect"},
                                          {"kind": "mean", "window": 3}]})");
  const Outcome file = runCli("filter " + in + " -q --pipeline " + dir.file("p.json") + " -o " + dir.file("f.npy"), dir);
  ASSERT_EQ(file.exitCode, 0) << file.err;
  ASSERT_EQ(runCli("filter " + in + " -q --chain \"median 5 mode reflect; mean 3\" -o " + dir.file("c.npy"), dir).exitCode, 0);
  EXPECT_TRUE(test::readFile(dir.file("f.npy")) == test::readFile(dir.file("c.npy")));
  const Outcome both = runCli("filter " + in + " --pipeline " + dir.file("p.json") + " --median 5 -o " + dir.file("b.npy"), dir);
  EXPECT_EQ(both.exitCode, 2);
  EXPECT_NE(both.err.find("excludes"), std::string::npos) << both.err;
}

TEST(ChainCli, EachStageTakesItsOwnEngine) {
  const test::TempDir dir;
  const std::string in = writeInput(dir, 500);
  const Outcome named = runCli("filter " + in + " --chain \"mean 5; median 3\" -e \"cpu-serial;auto\" -o " +
                                   dir.file("n.npy"), dir);
  ASSERT_EQ(named.exitCode, 0) << named.err;
  EXPECT_NE(named.err.find("stage 1 (mean): engine cpu-serial (chosen by name)"), std::string::npos) << named.err;
  // auto's choice for a median: gpu-median where a GPU is, else cpu-parallel; never the named cpu-serial
  EXPECT_NE(named.err.find("stage 2 (median): engine "), std::string::npos) << named.err;
  EXPECT_NE(named.err.find("(a median: "), std::string::npos) << named.err;
  EXPECT_EQ(named.err.find("stage 2 (median): engine cpu-serial"), std::string::npos) << named.err;
  const Outcome wrong = runCli("filter " + in + " --chain \"mean 5; median 3\" -e \"auto;cpu-running\" -o " +
                                   dir.file("w.npy"), dir);
  EXPECT_EQ(wrong.exitCode, 2);
  EXPECT_NE(wrong.err.find("stage 2 (median): engine cpu-running cannot run this filter here"), std::string::npos)
      << wrong.err;
  const Outcome count = runCli("filter " + in + " --chain \"mean 5; median 3\" -e \"auto;auto;auto\" -o " +
                                   dir.file("c.npy"), dir);
  EXPECT_EQ(count.exitCode, 2);
  EXPECT_NE(count.err.find("--engine names 3 engines for 2 stages"), std::string::npos) << count.err;
  EXPECT_FALSE(fs::exists(dir.file("w.npy")) || fs::exists(dir.file("c.npy")));
}

TEST(ChainCli, ABadChainIsExit2NamingTheStageAndTheWord) {
  const test::TempDir dir;
  const std::string in = writeInput(dir, 100);
  const std::size_t before = entriesIn(dir);
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"mean 5; medain 7", {"stage 2", "\"medain\""}},
      {"median five", {"stage 1 (median)", "five"}},
      {"mean 5; median 5 mode sideways", {"stage 2 (median)", "sideways"}},
  };
  for (const auto& [chain, words] : cases) {
    const Outcome o = runCli("filter " + in + " --chain \"" + chain + "\" -o " + dir.file("out.npy"), dir);
    EXPECT_EQ(o.exitCode, 2) << chain << ": " << o.err;
    for (const std::string& word : words) EXPECT_NE(o.err.find(word), std::string::npos) << chain << ": " << o.err;
    EXPECT_EQ(entriesIn(dir), before + 2) << chain;  // stdout.log and stderr.log only
  }
}

// Bound to the signal before any work: a Savitzky-Golay of 101 with interp edges on 50 samples.
TEST(ChainCli, AStageTooLongForTheSignalIsExit2BeforeAnyOutput) {
  const test::TempDir dir;
  const std::string in = writeInput(dir, 50);
  for (const std::string stream : {"never", "always"}) {
    const Outcome o = runCli("filter " + in + " --stream " + stream + " --chain \"mean 3; savgol 101,2\" -o " +
                                 dir.file("out.npy"), dir);
    EXPECT_EQ(o.exitCode, 2) << o.err;
    EXPECT_NE(o.err.find("stage 2 (savgol): interp edges need at least W = 101 samples"), std::string::npos) << o.err;
    EXPECT_EQ(o.err.find("stage 1 (mean): engine"), std::string::npos) << o.err;
    EXPECT_FALSE(fs::exists(dir.file("out.npy")));
  }
}

}  // namespace
}  // namespace siglab
