// hilbert, envelope and correlate through siglab-cli: the one-stage options from the registry
// (--envelope and --hilbert take no value, --correlate TEMPLATE[,mode=...]) and the chain's words
// give the same bytes; a bad value is exit 2 naming it, with nothing written.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "cli_run.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::runCli;

TEST(EnvelopeCli, OptionsAndChainsGiveTheSameBytes) {
  const test::TempDir dir;
  std::mt19937_64 rng(3);
  writeSignal(dir.file("in.npy"), test::randomSignal(3001, rng));
  writeSignal(dir.file("t.txt"), std::vector<double>{1.0, -2.0, 0.5, 3.0});
  const std::string in = dir.file("in.npy") + " -q ";
  for (const auto& [option, chain] : std::vector<std::pair<std::string, std::string>>{
           {"--envelope", "envelope"}, {"--hilbert", "hilbert"},
           {"--correlate " + dir.file("t.txt") + ",mode=same", "correlate " + dir.file("t.txt") + ",mode=same"}}) {
    SCOPED_TRACE(option);
    const test::CliOutcome one = runCli("filter " + in + option + " -o " + dir.file("one.npy"), dir);
    ASSERT_EQ(one.exitCode, 0) << one.err;
    const test::CliOutcome chained = runCli("filter " + in + "--chain \"" + chain + "\" -o " + dir.file("chain.npy"), dir);
    ASSERT_EQ(chained.exitCode, 0) << chained.err;
    EXPECT_TRUE(test::readFile(dir.file("one.npy")) == test::readFile(dir.file("chain.npy")));
  }
  EXPECT_EQ(readSignal(dir.file("one.npy")).samples.size(), 3001u);  // mode same: the signal's length
}

TEST(EnvelopeCli, ABadValueIsExit2NamingItAndNothingIsWritten) {
  const test::TempDir dir;
  writeSignal(dir.file("in.npy"), std::vector<double>(100, 1.0));
  writeSignal(dir.file("t.txt"), std::vector<double>{1.0, 2.0});
  const test::CliOutcome valued = runCli("filter " + dir.file("in.npy") + " --envelope 3 -o " + dir.file("out.npy"), dir);
  EXPECT_EQ(valued.exitCode, 2);
  EXPECT_NE(valued.err.find("--envelope takes no value, got \"3\""), std::string::npos) << valued.err;
  const test::CliOutcome mode =
      runCli("filter " + dir.file("in.npy") + " --correlate " + dir.file("t.txt") + ",mode=middle -o " + dir.file("out.npy"), dir);
  EXPECT_EQ(mode.exitCode, 2);
  EXPECT_NE(mode.err.find("mode must be one of full, same, valid, got \"middle\""), std::string::npos) << mode.err;
  const test::CliOutcome csv = runCli("filter " + dir.file("in.npy") + " --hilbert -o " + dir.file("out.csv"), dir);
  EXPECT_EQ(csv.exitCode, 2);
  EXPECT_NE(csv.err.find("must end in .npy"), std::string::npos) << csv.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.csv")));
}

}  // namespace
}  // namespace siglab
