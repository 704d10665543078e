// The rate-changing stages end to end through siglab-cli: --chain and the one-stage options that
// come from the registry (--resample-poly, --decimate, --upfirdn), the written file's rate and
// length, streamed bytes equal to in-memory bytes, and a bad parameter as exit 2 naming it.
#include <gtest/gtest.h>

#include <random>

#include "cli_run.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Outcome = test::CliOutcome;
using test::runCli;

TEST(RateCli, ChainsAndOneStageOptionsResampleEndToEnd) {
  const test::TempDir dir;
  std::mt19937_64 rng(5);
  test::writeRandomPcm16Wav(dir.file("in.wav"), 2, 4001, rng);  // 8000 Hz, two channels
  const std::string in = dir.file("in.wav");
  const Outcome chain = runCli("filter " + in + " -q --stream never --chain \"decimate 4; resample-poly 3,2\" -o " +
                                   dir.file("chain.wav"), dir);
  ASSERT_EQ(chain.exitCode, 0) << chain.err;
  const Channels result = readChannels(dir.file("chain.wav"));
  ASSERT_EQ(result.channels.size(), 2u);
  EXPECT_EQ(result.channels[0].size(), 1502u);  // ceil(ceil(4001 / 4) 3 / 2)
  ASSERT_TRUE(result.sampleRate);
  EXPECT_DOUBLE_EQ(*result.sampleRate, 3000.0);
  // The same two stages as one-stage options, one run each (through float64 .npy): the same bytes.
  ASSERT_EQ(runCli("filter " + in + " -q --chain \"decimate 4; resample-poly 3,2\" -o " + dir.file("chain.npy"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + in + " -q --decimate 4 -o " + dir.file("1.npy"), dir).exitCode, 0);
  const Outcome second = runCli("filter " + dir.file("1.npy") + " -q --resample-poly 3,2 -o " + dir.file("2.npy"), dir);
  ASSERT_EQ(second.exitCode, 0) << second.err;
  EXPECT_TRUE(test::readFile(dir.file("chain.npy")) == test::readFile(dir.file("2.npy")));
  // Streamed (the zero-phase IIR through a spool file, read back): the in-memory bytes.
  const std::string streamable = " --chain \"decimate 4; resample-poly 3,2; decimate 3 ftype fir zero-phase=off\"";
  ASSERT_EQ(runCli("filter " + in + streamable + " -q --stream never -o " + dir.file("memory.npy"), dir).exitCode, 0);
  for (const int block : {1, 7, 4096}) {
    const Outcome streamed = runCli("filter " + in + streamable + " --stream always --stream-block " + std::to_string(block) +
                                        " -o " + dir.file("streamed.npy"), dir);
    ASSERT_EQ(streamed.exitCode, 0) << streamed.err;
    EXPECT_NE(streamed.err.find("stream: streamed block by block"), std::string::npos) << streamed.err;
    EXPECT_TRUE(test::readFile(dir.file("streamed.npy")) == test::readFile(dir.file("memory.npy"))) << block;
  }
}

TEST(RateCli, ABadRateParameterIsExit2NamingItAndNothingIsWritten) {
  const test::TempDir dir;
  writeSignal(dir.file("in.npy"), std::vector<double>(100, 1.0));
  const Outcome zero = runCli("filter " + dir.file("in.npy") + " --decimate 0 -o " + dir.file("out.npy"), dir);
  EXPECT_EQ(zero.exitCode, 2);
  EXPECT_NE(zero.err.find("--decimate: must be a whole number from 1 to 65536, got \"0\""), std::string::npos) << zero.err;
  const Outcome tooShort = runCli("filter " + dir.file("in.npy") + " --chain \"median 3; decimate 200 ftype fir\" -o " +
                                      dir.file("out.npy"), dir);
  EXPECT_EQ(tooShort.exitCode, 2);
  EXPECT_NE(tooShort.err.find("stage 2 (decimate): its rate change 1/200 leaves 0.5 of a sample"), std::string::npos)
      << tooShort.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
}

}  // namespace
}  // namespace siglab
