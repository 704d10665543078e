// --median, --savgol, --butter and --zero-phase on filter, compare and response: results against
// SciPy, reports, and every bad value refused with exit 2 naming the option and the allowed range.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <atomic>
#include <random>
#include <thread>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/text_format.hpp"
#include "cli_run.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using Outcome = test::CliOutcome;
using test::runCli;

std::string writeRandomText(const test::TempDir& dir, std::size_t n) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(n, rng);
  std::string text;
  for (double v : x) text += std::to_string(v) + "\n";
  test::writeFile(dir.file("in.txt"), text);
  return dir.file("in.txt");
}

TEST(KindsCli, FilterResultsMatchScipy) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  test::TempDir dir;
  const std::string in = writeRandomText(dir, 3001);
  const std::vector<double> x = readTextSignal(in);
  struct Case {
    std::string options, scipy;
  };
  const std::vector<Case> cases = {
      {"--median 9 --mode nearest", "ndimage.median_filter(x[0], 9, mode='nearest')"},
      {"--savgol 13,4,2", "signal.savgol_filter(x[0], 13, 4, deriv=2)"},
      {"--savgol 7,2 --mode wrap", "signal.savgol_filter(x[0], 7, 2, mode='wrap')"},
      {"--butter 4,40,120 --rate 1000 --zero-phase", "signal.sosfiltfilt(signal.butter(4, [40, 120], 'bandpass', output='sos', fs=1000), x[0])"},
      {"--butter 2,0.3,highpass", "signal.sosfilt(signal.butter(2, 0.3, 'highpass', output='sos'), x[0])"},
  };
  std::string all = "np.concatenate([";
  for (const Case& c : cases) all += c.scipy + ", ";
  const std::vector<double> expected = test::scipyEval(all + "])", {x});
  ASSERT_EQ(expected.size(), cases.size() * x.size());
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const Outcome o = runCli("filter " + in + " -o " + dir.file("out.npy") + " " + cases[k].options, dir);
    ASSERT_EQ(o.exitCode, 0) << cases[k].options << "\n" << o.err;
    EXPECT_NE(o.err.find("filter: "), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("verify: "), std::string::npos) << o.err;
    EXPECT_NE(o.err.find(": all "), std::string::npos) << o.err;
    const std::vector<double> y = readSignal(dir.file("out.npy")).samples.toVector();
    ASSERT_EQ(y.size(), x.size());
    for (std::size_t i = 0; i < y.size(); ++i) {
      const double want = expected[k * x.size() + i];
      ASSERT_NEAR(y[i], want, 1e-9 * (1.0 + std::fabs(want))) << cases[k].options << " at " << i;
    }
  }
}

// A WAV file has its own rate: Butterworth cutoffs in Hz need no --rate there.
TEST(KindsCli, ButterworthCutoffsInHzUseAWavInputsOwnRate) {
  test::TempDir dir;
  const std::string in = writeRandomText(dir, 2000), wav = dir.file("in.wav");
  ASSERT_EQ(runCli("filter " + in + " --window 1 --rate 8000 -o " + wav, dir).exitCode, 0);
  const Outcome own = runCli("filter " + wav + " --butter 4,1000 --zero-phase -o " + dir.file("own.npy"), dir);
  ASSERT_EQ(own.exitCode, 0) << own.err;
  ASSERT_EQ(runCli("filter " + wav + " --rate 8000 --butter 4,1000 --zero-phase -o " + dir.file("given.npy"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + wav + " --rate 16000 --butter 4,1000 --zero-phase -o " + dir.file("other.npy"), dir).exitCode, 0);
  EXPECT_EQ(test::readFile(dir.file("own.npy")), test::readFile(dir.file("given.npy")));
  EXPECT_NE(test::readFile(dir.file("own.npy")), test::readFile(dir.file("other.npy")));
  const Outcome text = runCli("filter " + in + " --butter 4,1000 -o " + dir.file("t.npy"), dir);
  EXPECT_EQ(text.exitCode, 2);
  EXPECT_NE(text.err.find("without a rate, cutoffs are fractions of Nyquist"), std::string::npos) << text.err;
}

// `cat FILE | siglab-cli ARGS`: standard input is a pipe.
Outcome runCliOnPipe(const std::string& file, const std::string& args, const test::TempDir& dir) {
  const std::string command = "cat " + file + " | " + SIGLAB_CLI_PATH + " " + args + " >" + dir.file("stdout.log") +
                              " 2>" + dir.file("stderr.log");
  const int status = std::system(command.c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, test::readFile(dir.file("stdout.log")),
          test::readFile(dir.file("stderr.log"))};
}

// `siglab-cli ARGS` on a FIFO of the test's folder (named in ARGS as FIFO) that a thread fills with FILE.
Outcome runCliOnFifo(const std::string& file, const std::string& args, const test::TempDir& dir) {
  const std::string fifo = dir.file("input.fifo");
  std::filesystem::remove(fifo);
  if (::mkfifo(fifo.c_str(), 0600) != 0) return {-1, "", "mkfifo failed"};
  const std::string contents = test::readFile(file);
  // The write end is open before the CLI opens the FIFO (else it reads as empty): a reader that
  // never reads lets it open at once. Neither passes to the CLI (O_CLOEXEC).
  const int keeper = ::open(fifo.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  const int writeEnd = ::open(fifo.c_str(), O_WRONLY | O_CLOEXEC);
  if (keeper < 0 || writeEnd < 0) return {-1, "", "cannot open the FIFO"};
  std::atomic<bool> written{false};
  std::thread writer([&] {
    for (std::size_t done = 0; done < contents.size();) {
      const ssize_t n = ::write(writeEnd, contents.data() + done, contents.size() - done);
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    ::close(writeEnd);
    written = true;
  });
  std::string withFifo = args;
  withFifo.replace(withFifo.find("FIFO"), 4, fifo);
  const Outcome o = runCli(withFifo, dir);
  char drain[1 << 16];
  while (!written) {  // a CLI that stopped early: what it left, so that the writer ends
    if (::read(keeper, drain, sizeof drain) <= 0) std::this_thread::yield();
  }
  writer.join();
  ::close(keeper);
  return o;
}

// The Butterworth's rate probe (a WAV input's own rate) reads a stream through the readers' spool:
// the filter and compare still get every sample of a FIFO or a pipe on standard input, not what
// the probe left of it (issue 24: 87227 of 100000 samples).
TEST(KindsCli, ButterworthOnAStreamReadsEverySampleTheProbeSaw) {
  test::TempDir dir;
  const std::string in = writeRandomText(dir, 20000);  // about 200 KB: more than the probe's 64 KiB
  const std::string butter = " --butter 4,0.2 -q -e cpu-serial ";
  ASSERT_EQ(runCli("filter " + in + butter + "-o " + dir.file("file.txt"), dir).exitCode, 0);
  const std::string expected = test::readFile(dir.file("file.txt"));
  ASSERT_EQ(readTextSignal(dir.file("file.txt")).size(), 20000u);
  const Outcome fifo = runCliOnFifo(in, "filter FIFO" + butter + "-o " + dir.file("fifo.txt"), dir);
  ASSERT_EQ(fifo.exitCode, 0) << fifo.err;
  EXPECT_TRUE(test::readFile(dir.file("fifo.txt")) == expected);
  for (const char* input : {"/dev/stdin", "-"}) {
    const Outcome piped = runCliOnPipe(in, "filter " + std::string(input) + butter + "-o " + dir.file("pipe.txt"), dir);
    ASSERT_EQ(piped.exitCode, 0) << input << ": " << piped.err;
    EXPECT_TRUE(test::readFile(dir.file("pipe.txt")) == expected) << input;
  }
  const std::string compare = " --butter 4,0.2 -b cpu-serial,cpu-parallel --repeat 1 --report ";
  const Outcome fromFifo = runCliOnFifo(in, "compare FIFO" + compare + dir.file("fifo.json"), dir);
  ASSERT_EQ(fromFifo.exitCode, 0) << fromFifo.err;
  const Outcome fromPipe = runCliOnPipe(in, "compare /dev/stdin" + compare + dir.file("pipe.json"), dir);
  ASSERT_EQ(fromPipe.exitCode, 0) << fromPipe.err;
  for (const char* report : {"fifo.json", "pipe.json"}) {
    const auto json = nlohmann::json::parse(test::readFile(dir.file(report)));
    EXPECT_EQ(json["samples"], 20000) << report;
    EXPECT_EQ(json["all_agree"], true) << report;
  }
}

TEST(KindsCli, CompareRunsEveryEngineThatSupportsTheKindAndReportsIt) {
  test::TempDir dir;
  const std::string in = writeRandomText(dir, 20001);
  const Outcome o = runCli("compare " + in + " --median 31 --mode reflect --backend all --repeat 1 --report " +
                               dir.file("r.json"), dir);
  ASSERT_EQ(o.exitCode, 0) << o.out << o.err;
  EXPECT_NE(o.out.find("filter: median W=31, reflect"), std::string::npos) << o.out;
  const auto report = nlohmann::json::parse(test::readFile(dir.file("r.json")));
  EXPECT_EQ(report["kind"], "median");
  EXPECT_EQ(report["parameters"]["window"], 31);
  for (const auto& b : report["backends"]) {
    const std::string name = b["name"];
    if (name == "cpu-serial" || name == "cpu-parallel") {
      EXPECT_EQ(b["status"], "ok") << b.dump();
      EXPECT_EQ(b["bit_identical"], true) << b.dump();
    } else if (name != "gpu-median") {
      EXPECT_EQ(b["status"], "unavailable") << b.dump();
      EXPECT_FALSE(b["message"].get<std::string>().empty());
    }
  }
  const Outcome sos = runCli("compare " + in + " --butter 8,0.1,0.3 --zero-phase --backend cpu-serial,cpu-parallel,gpu-sos-scan "
                             "--repeat 1 --report " + dir.file("r.csv"), dir);
  ASSERT_EQ(sos.exitCode, 0) << sos.out << sos.err;
  EXPECT_NE(test::readFile(dir.file("r.csv")).find(",butterworth,"), std::string::npos);
}

TEST(KindsCli, ResponseOfEachKind) {
  test::TempDir dir;
  const Outcome butter = runCli("response -o " + dir.file("b.csv") + " --butter 4,100 --rate 1000 -n 10", dir);
  ASSERT_EQ(butter.exitCode, 0) << butter.err;
  // 0, 50, 100 Hz, ...: -3.01 dB at the cutoff.
  const std::string csv = test::readFile(dir.file("b.csv"));
  EXPECT_NE(csv.find("\n100,-3.01"), std::string::npos) << csv;
  EXPECT_EQ(runCli("response -o " + dir.file("s.csv") + " --savgol 11,3", dir).exitCode, 0);
  const Outcome median = runCli("response -o " + dir.file("m.csv") + " --median 5", dir);
  EXPECT_EQ(median.exitCode, 2);
  EXPECT_NE(median.err.find("--median: a median has no frequency response"), std::string::npos) << median.err;
  EXPECT_FALSE(std::filesystem::exists(dir.file("m.csv")));
}

TEST(KindsCli, BadValuesExit2NamingTheOptionAndTheRange) {
  test::TempDir dir;
  const std::string in = writeRandomText(dir, 90);  // shorter than --savgol 301 and 15 sections' zero-phase padding (93)
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--median 4", "--median W must be a positive odd number"},
      {"--median 0", "--median: must be a whole number from 1 to 16777216, got \"0\""},  // the registry's range
      {"--median -3", "--median"},
      {"--savgol 8,2", "--savgol W must be a positive odd number"},
      {"--savgol 7,7", "--savgol ORDER (below W = 7) must be a whole number from 0 to 6"},
      {"--savgol 7,2,3", "--savgol DERIV (at most ORDER = 2) must be a whole number from 0 to 2"},
      {"--savgol 7", "--savgol takes W,ORDER[,DERIV]"},
      {"--savgol 301,2", "--savgol: interp edges need at least W = 301 samples"},
      {"--butter 0,0.2", "--butter ORDER must be a whole number from 1 to 32"},
      {"--butter 33,0.2", "--butter ORDER must be a whole number from 1 to 32"},
      {"--butter 4,1.2", "--butter: butterworth cutoff must be"},
      {"--butter 4,0", "--butter: butterworth cutoff must be"},
      {"--butter 4,600 --rate 1000", "--butter: butterworth cutoff must be"},
      {"--butter 4,0.3,0.1", "--butter: butterworth band cutoffs must increase"},
      {"--butter 4,0.1,lowpass,0.2", "--butter takes ORDER,CUTOFF"},
      {"--butter 4,0.1,bandpass", "--butter bandpass needs two cutoffs"},
      {"--butter 4,0.1,0.2,highpass", "--butter highpass takes one cutoff"},
      {"--butter 30,0.2 --zero-phase", "--zero-phase needs more than"},
      {"--zero-phase", "--zero-phase requires --butter, --cheby1, "},  // or another kind that takes it
      {"--median 5 --savgol 5,2", "excludes"},
      {"--median 5 --window 7", "excludes"},
      {"--mode interp", "--mode interp is Savitzky-Golay's"},
      {"--median 5 --mode interp", "--mode must be one of"},
  };
  for (const auto& [options, message] : cases) {
    const Outcome o = runCli("filter " + in + " -o " + dir.file("out.txt") + " " + options, dir);
    EXPECT_EQ(o.exitCode, 2) << options << ": " << o.err;
    EXPECT_NE(o.err.find(message), std::string::npos) << options << ": " << o.err;
    EXPECT_EQ(o.err.find("std::"), std::string::npos) << o.err;
    EXPECT_FALSE(std::filesystem::exists(dir.file("out.txt"))) << options;
  }
  const Outcome gpuOnly = runCli("filter " + in + " -o " + dir.file("out.txt") + " --median 5 --engine gpu-sos-scan", dir);
  EXPECT_EQ(gpuOnly.exitCode, 2);
  EXPECT_NE(gpuOnly.err.find("gpu-sos-scan"), std::string::npos) << gpuOnly.err;
}

// A recursive filter is checked in stretches by default (bounded memory, a few percent of the
// filter's time), every output with --verify-all; auto runs the block scan (its poles fade quickly).
TEST(KindsCli, ButterworthIsVerifiedInStretchesAndWhollyWithVerifyAll) {
  test::TempDir dir;
  const std::string in = writeRandomText(dir, 150000);
  const Outcome stretches = runCli("filter " + in + " --butter 4,0.1 --zero-phase -o " + dir.file("a.npy"), dir);
  ASSERT_EQ(stretches.exitCode, 0) << stretches.err;
  EXPECT_NE(stretches.err.find("engine: cpu-parallel"), std::string::npos) << stretches.err;
  EXPECT_NE(stretches.err.find("outputs in stretches"), std::string::npos) << stretches.err;
  const Outcome all = runCli("filter " + in + " --butter 4,0.1 --zero-phase --verify-all -e cpu-parallel -o " +
                                 dir.file("b.npy"), dir);
  ASSERT_EQ(all.exitCode, 0) << all.err;
  EXPECT_NE(all.err.find("verify: all 150000 outputs against one serial pass"), std::string::npos) << all.err;
  EXPECT_NE(all.err.find("bound: cpu-parallel is bounded norm-wise"), std::string::npos) << all.err;
}

}  // namespace
}  // namespace siglab
