// The linear filter stages end to end: a chain of a design and a given filter on a two-channel
// file against SciPy, streamed as in memory, each design's response, and an unstable filter
// refused (exit 2, naming the stage) before any output.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "cli_run.hpp"
#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::runCli;

TEST(IirCli, ADesignThenAGivenSectionsFileMatchesScipyOnEveryChannel) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const test::TempDir dir;
  const std::string in = dir.file("in.npy"), sos = dir.file("s.txt");
  test::scipyEval("[np.save('" + in + "', np.random.default_rng(5).standard_normal((1001, 3))), np.savetxt('" + sos +
                      "', signal.ellip(3, 1, 40, 0.3, output='sos'))]",
                  {});
  const test::CliOutcome run = runCli("filter " + in + " -q --chain \"cheby1 4,1,0.2; sosfilt " + sos + "\" -o " +
                                          dir.file("out.npy"), dir);
  ASSERT_EQ(run.exitCode, 0) << run.err;
  // SciPy filters along the samples of each column; the largest difference comes back, with the shape.
  const std::vector<double> got = test::scipyEval(
      "[np.load('" + dir.file("out.npy") + "').shape[0], np.load('" + dir.file("out.npy") + "').shape[1], "
      "np.max(np.abs(np.load('" + dir.file("out.npy") + "') - signal.sosfilt(np.loadtxt('" + sos +
          "'), signal.sosfilt(signal.cheby1(4, 1, 0.2, output='sos'), np.load('" + in + "'), axis=0), axis=0)))]",
      {});
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], 1001);
  EXPECT_EQ(got[1], 3);
  EXPECT_LT(got[2], 1e-12);
}

TEST(IirCli, StreamedIsTheInMemoryBytes) {
  const test::TempDir dir;
  test::writeFile(dir.file("b.txt"), "0.1\n0.2\n0.4\n0.2\n0.1\n");
  test::writeFile(dir.file("a.txt"), "1\n");
  test::writeFile(dir.file("s.txt"), "1 2 1 1 -0.5 0.25\n");
  const std::string in = dir.file("in.txt");
  ASSERT_EQ(runCli("generate -n 3001 --seed 4 -o " + in, dir).exitCode, 0);
  const std::string chain = " --chain \"bessel 3,0.3 zero-phase; lfilter " + dir.file("b.txt") + "," + dir.file("a.txt") +
                            "; iirnotch 0.25,10; sosfiltfilt " + dir.file("s.txt") + "\"";
  const test::CliOutcome memory = runCli("filter " + in + chain + " -q --stream never -o " + dir.file("m.npy"), dir);
  ASSERT_EQ(memory.exitCode, 0) << memory.err;
  for (const int block : {1, 7, 1000}) {
    const test::CliOutcome streamed = runCli("filter " + in + chain + " -q --stream always --stream-block " +
                                                 std::to_string(block) + " -o " + dir.file("s.npy"), dir);
    ASSERT_EQ(streamed.exitCode, 0) << streamed.err;
    EXPECT_TRUE(test::readFile(dir.file("s.npy")) == test::readFile(dir.file("m.npy"))) << "blocks of " << block;
  }
}

TEST(IirCli, ResponsePrintsEachDesign) {
  const test::TempDir dir;
  for (const std::string option : {"--cheby1 4,1,0.2", "--cheby2 4,40,0.2", "--ellip 4,1,40,0.1,0.3", "--bessel 4,0.2",
                                   "--iirnotch 0.2,30", "--iirpeak 0.2,30"}) {
    const test::CliOutcome r = runCli("response " + option + " -o " + dir.file("r.csv"), dir);
    ASSERT_EQ(r.exitCode, 0) << option << r.err;
    EXPECT_NE(test::readFile(dir.file("r.csv")).find("frequency,magnitude_db,phase_rad"), std::string::npos);
  }
}

TEST(IirCli, AnUnstableFilterIsRefusedNamingTheStageBeforeAnyOutput) {
  const test::TempDir dir;
  test::writeFile(dir.file("u.txt"), "1 0 0 1 -2.5 1.5\n");
  const std::string in = dir.file("in.txt");
  ASSERT_EQ(runCli("generate -n 100 -o " + in, dir).exitCode, 0);
  const test::CliOutcome r = runCli("filter " + in + " --chain \"median 3; sosfilt " + dir.file("u.txt") + "\" -o " +
                                        dir.file("out.npy"), dir);
  EXPECT_EQ(r.exitCode, 2) << r.err;
  EXPECT_NE(r.err.find("stage 2 (sosfilt)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("unstable"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("out.npy")));
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

// The one-stage options are the chain's stage; a parameter written after a value without a kind
// that takes it is exit 2, naming the options that do.
TEST(IirCli, OneStageOptionsAreTheChainsStageAndForeignParametersAreRefused) {
  const test::TempDir dir;
  const std::string in = dir.file("in.txt");
  ASSERT_EQ(test::runCli("generate -n 400 -o " + in, dir).exitCode, 0);
  ASSERT_EQ(test::runCli("filter " + in + " -q --firwin 31,0.2 --fir-window hann --zero-phase -o " + dir.file("a.npy"), dir)
                .exitCode, 0);
  ASSERT_EQ(test::runCli("filter " + in + " -q --chain \"firwin 31,0.2 fir-window hann zero-phase\" -o " +
                             dir.file("b.npy"), dir).exitCode, 0);
  EXPECT_TRUE(test::readFile(dir.file("a.npy")) == test::readFile(dir.file("b.npy")));
  for (const auto& [options, message] : std::vector<std::pair<std::string, std::string>>{
           {"--pass-zero false", "--pass-zero requires --firwin"},
           {"--median 5 --norm mag", "--norm requires --bessel"},
           {"--butter 4,0.2 --fir-window hann", "--fir-window requires --firwin"}}) {
    const test::CliOutcome r = test::runCli("filter " + in + " " + options + " -o " + dir.file("c.npy"), dir);
    EXPECT_EQ(r.exitCode, 2) << options << ": " << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << options << ": " << r.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("c.npy"))) << options;
  }
}

}  // namespace
}  // namespace siglab
