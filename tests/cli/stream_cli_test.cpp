// `filter` streamed against `filter --stream never`, byte for byte, through the CLI: every input and
// output format, boundary mode and exact engine this machine can run (GPU engines where a GPU is),
// tiny blocks; and the failures that must leave nothing behind.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "cli_run.hpp"
#include "test_support.hpp"

extern char** environ;

namespace siglab {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CliOutcome;
using test::runCli;

using test::entriesIn;

using test::hasTemporaries;

// `filter ARGS -o OUT` in memory, then streamed in blocks of each of `blocks`: the same bytes.
void expectStreamedEqualsInMemory(const test::TempDir& dir, const std::string& args, const std::string& out,
                                  std::initializer_list<std::size_t> blocks) {
  const Outcome inMemory = runCli("filter " + args + " -q --stream never -o " + dir.file("memory-" + out), dir);
  ASSERT_EQ(inMemory.exitCode, 0) << args << ": " << inMemory.err;
  for (const std::size_t block : blocks) {
    SCOPED_TRACE(args + " -o " + out + " --stream-block " + std::to_string(block));
    const Outcome streamed = runCli("filter " + args + " --stream always --stream-block " + std::to_string(block) +
                                        " -o " + dir.file("streamed-" + out), dir);
    ASSERT_EQ(streamed.exitCode, 0) << streamed.err;
    EXPECT_NE(streamed.err.find("stream: streamed block by block"), std::string::npos) << streamed.err;
    EXPECT_TRUE(test::readFile(dir.file("streamed-" + out)) == test::readFile(dir.file("memory-" + out)));
  }
}

// siglab-cli filter IN -o OUT with cpu-serial in blocks of one output (slow enough to be caught
// mid-stream), started in the background with stdout.log and stderr.log in `dir`; its pid, or -1.
pid_t spawnSlowStreamedFilter(const std::string& in, const std::string& out, const test::TempDir& dir) {
  std::vector<std::string> args = {SIGLAB_CLI_PATH, "filter", in, "-e", "cpu-serial", "--stream-block", "1", "-o", out};
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, dir.file("stdout.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, dir.file("stderr.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int failed = posix_spawn(&pid, args.front().c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return failed ? -1 : pid;
}

// The exact engines this machine can run: a GPU engine without a GPU says why and is left out,
// unless SIGLAB_REQUIRE_GPU=1 asks for it.
std::vector<std::string> exactEnginesHere(const test::TempDir& dir, const std::string& input) {
  std::vector<std::string> engines = {"cpu-serial", "cpu-parallel"};
  const char* required = std::getenv("SIGLAB_REQUIRE_GPU");
  for (const char* gpu : {"gpu-global", "gpu-constant", "gpu-shared", "gpu-tuned"}) {
    const Outcome probe = runCli("filter " + input + " -q -e " + gpu + " -o " + dir.file("probe.txt"), dir);
    if (probe.exitCode == 0) {
      engines.emplace_back(gpu);
    } else {
      EXPECT_FALSE(required && std::string(required) == "1") << gpu << ": " << probe.err;
    }
  }
  fs::remove(dir.file("probe.txt"));
  return engines;
}

TEST(StreamCli, EveryExactEngineModeAndTinyBlockGivesTheInMemoryBytes) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 600 --seed 4 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string in = dir.file("in.txt");
  for (const std::string& engine : exactEnginesHere(dir, in)) {
    for (const char* mode : {"zero", "reflect", "mirror", "nearest", "wrap"}) {
      // W = 7: blocks of 1, W - 1, W and an odd size that divides nothing.
      expectStreamedEqualsInMemory(dir, in + " -e " + engine + " -w 7 --mode " + mode, "out.txt", {1, 6, 7, 37});
    }
    expectStreamedEqualsInMemory(dir, in + " -e " + engine + " --gaussian 2 --mode wrap --dtype f32", "out.npy", {11});
  }
}

TEST(StreamCli, EveryInputFormatToEveryOutputFormat) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 500 --seed 8 -o " + dir.file("in.txt"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -q -w 1 -o " + dir.file("in.npy"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -q -w 1 -o " + dir.file("in.raw"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -q -w 1 -o " + dir.file("in.wav"), dir).exitCode, 0);
  std::string csv = "time,value\n";
  const std::string text = test::readFile(dir.file("in.txt"));
  std::size_t line = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    csv += std::to_string(line++) + "," + text.substr(at, end - at) + "\n";
    at = end + 1;
  }
  test::writeFile(dir.file("in.csv"), csv);
  const std::vector<std::string> inputs = {dir.file("in.txt"), dir.file("in.npy"), dir.file("in.raw") + " --raw f64",
                                           dir.file("in.wav"), dir.file("in.csv") + " --column 2 --skip-header"};
  for (const std::string& input : inputs) {
    for (const char* out : {"out.txt", "out.npy", "out.raw", "out.wav"}) {
      expectStreamedEqualsInMemory(dir, input + " -w 5 --mode reflect", out, {13});
    }
  }
}

// --rate is the rate of a text input: a streamed WAV export keeps it, as the in-memory one does.
TEST(StreamCli, AWavExportKeepsTheRateGivenWithRate) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 300 --seed 9 -o " + dir.file("in.txt"), dir).exitCode, 0);
  expectStreamedEqualsInMemory(dir, dir.file("in.txt") + " -w 3 --rate 8000", "out.wav", {7, 1000});
  const std::string wav = test::readFile(dir.file("streamed-out.wav"));
  const std::size_t fmt = wav.find("fmt ");
  ASSERT_NE(fmt, std::string::npos);
  std::uint32_t rate = 0;
  std::memcpy(&rate, wav.data() + fmt + 12, sizeof rate);
  EXPECT_EQ(rate, 8000u);
}

TEST(StreamCli, AMalformedLineDeepInTheFileIsNamedAndLeavesNoOutput) {
  test::TempDir dir;
  std::string text;
  for (int i = 0; i < 30000; ++i) text += std::to_string(i % 89) + ".5\n";
  text += "0.5.5\n1\n";
  test::writeFile(dir.file("in.txt"), text);
  test::writeFile(dir.file("old.txt"), "the old result\n");
  const std::string expected = runCli("filter " + dir.file("in.txt") + " -q --stream never -o " + dir.file("new.txt"), dir).err;
  EXPECT_NE(expected.find("in.txt:30001:1: expected a number"), std::string::npos) << expected;
  for (const char* out : {"new.txt", "old.txt"}) {
    const Outcome streamed =
        runCli("filter " + dir.file("in.txt") + " -q --stream-block 100 -o " + dir.file(out), dir);
    EXPECT_EQ(streamed.exitCode, 3);
    EXPECT_EQ(streamed.err.substr(streamed.err.find("siglab-cli filter:")), expected.substr(expected.find("siglab-cli filter:")));
  }
  EXPECT_FALSE(fs::exists(dir.file("new.txt")));
  EXPECT_EQ(test::readFile(dir.file("old.txt")), "the old result\n");
  EXPECT_FALSE(hasTemporaries(dir));
}

TEST(StreamCli, InterruptedWhileStreamingLeavesNothingBehind) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 400000 --seed 2 -o " + dir.file("in.txt"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -q -w 1 -o " + dir.file("in.npy"), dir).exitCode, 0);
  const std::size_t before = entriesIn(dir);
  // Blocks of 1 output: long enough to be caught with its temporary in place.
  const std::string in = dir.file("in.npy"), out = dir.file("out.npy");
  const pid_t pid = spawnSlowStreamedFilter(in, out, dir);
  ASSERT_GT(pid, 0);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!hasTemporaries(dir) && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  const bool caughtStreaming = hasTemporaries(dir);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  ASSERT_TRUE(caughtStreaming) << test::readFile(dir.file("stderr.log"));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << test::readFile(dir.file("stderr.log"));
  EXPECT_NE(test::readFile(dir.file("stderr.log")).find("interrupted by SIGINT"), std::string::npos);
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(hasTemporaries(dir));
  EXPECT_EQ(entriesIn(dir), before);  // the logs were there already
}

TEST(StreamCli, AutoStreamsIntoPipesAndKeepsInexactEnginesInMemoryAndSaysWhy) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 3000 --seed 6 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string in = dir.file("in.txt");
  const Outcome toFile = runCli("filter " + in + " -w 5 -o " + dir.file("a.txt"), dir);
  EXPECT_NE(toFile.err.find("stream: streamed block by block with bounded memory, the same bits as in memory"),
            std::string::npos) << toFile.err;
  EXPECT_NE(toFile.out.find("streamed in 1 block"), std::string::npos) << toFile.out;
  const Outcome toPipe = runCli("filter " + in + " -w 5 -o - | cat > " + dir.file("b.txt"), dir);
  EXPECT_NE(toPipe.err.find("stream: streamed block by block with bounded memory"), std::string::npos) << toPipe.err;
  EXPECT_TRUE(test::readFile(dir.file("a.txt")) == test::readFile(dir.file("b.txt")));
  const Outcome running = runCli("filter " + in + " -w 21 -e cpu-running -o " + dir.file("d.txt"), dir);
  EXPECT_EQ(running.err.find("stream:"), std::string::npos) << running.err;
  EXPECT_NE(running.err.find("engine: cpu-running"), std::string::npos) << running.err;
  EXPECT_NE(running.err.find("bound: cpu-running is bounded norm-wise: every output is within "), std::string::npos)
      << running.err;
  const Outcome fromStdin = runCli("filter - -w 5 -o " + dir.file("e.txt") + " < " + in, dir);
  EXPECT_NE(fromStdin.err.find("stream: streamed block by block"), std::string::npos) << fromStdin.err;
  EXPECT_TRUE(test::readFile(dir.file("a.txt")) == test::readFile(dir.file("e.txt")));
}

// Runs `filter ARGS` with standard input from the pipe `feed |` (empty: none) and its standard
// output into a pipe read by cat into `piped`; the outcome is filter's own (exit status, stderr).
Outcome filterThroughPipes(const test::TempDir& dir, const std::string& feed, const std::string& args,
                           const std::string& piped) {
  const std::string status = dir.file("status"), err = dir.file("filter-stderr.log");
  const std::string command = feed + "{ " + std::string(SIGLAB_CLI_PATH) + " filter " + args + " 2>" + err +
                              "; echo $? > " + status + "; } | cat > " + piped;
  std::system(command.c_str());
  const std::string code = test::readFile(status);
  return {code.empty() ? -1 : std::stoi(code), "", test::readFile(err)};
}

// Standard input and pipes stream in bounded memory (read into a temporary file first; the
// result reaches the pipe only once complete): the same bytes as a file filtered in memory, text
// and raw, tiny blocks, every mode (wrap reads the tail again).
TEST(StreamCli, StandardInputAndPipesGiveTheInMemoryBytes) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 700 --seed 12 -o " + dir.file("in.txt"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -q -w 1 -o " + dir.file("in.raw"), dir).exitCode, 0);
  const std::string fifo = dir.file("pipe.raw");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const char* mode : {"zero", "wrap", "mirror"}) {
    const std::string spec = std::string(" -e cpu-parallel -w 7 --mode ") + mode + " --stream-block 13 ";
    SCOPED_TRACE(spec);
    // Text in, text out.
    ASSERT_EQ(runCli("filter " + dir.file("in.txt") + spec + "--stream never -o " + dir.file("memory.txt"), dir).exitCode, 0);
    const std::string expected = test::readFile(dir.file("memory.txt"));
    const Outcome stdinToPipe = filterThroughPipes(dir, "cat " + dir.file("in.txt") + " | ", "-" + spec + "-o -", dir.file("got1.txt"));
    EXPECT_EQ(stdinToPipe.exitCode, 0) << stdinToPipe.err;
    EXPECT_NE(stdinToPipe.err.find("stream: streamed block by block"), std::string::npos) << stdinToPipe.err;
    EXPECT_TRUE(test::readFile(dir.file("got1.txt")) == expected);
    const Outcome fileToPipe = filterThroughPipes(dir, "", dir.file("in.txt") + spec + "-o -", dir.file("got2.txt"));
    EXPECT_EQ(fileToPipe.exitCode, 0) << fileToPipe.err;
    EXPECT_TRUE(test::readFile(dir.file("got2.txt")) == expected);
    const Outcome stdinToFile = runCli("filter -" + spec + "-o " + dir.file("got3.txt") + " < " + dir.file("in.txt"), dir);
    EXPECT_EQ(stdinToFile.exitCode, 0) << stdinToFile.err;
    EXPECT_TRUE(test::readFile(dir.file("got3.txt")) == expected);
    // Raw in, raw out (a named pipe called .raw: the output's format goes by its name).
    ASSERT_EQ(runCli("filter " + dir.file("in.raw") + " --raw f64" + spec + "--stream never -o " + dir.file("memory.raw"), dir).exitCode, 0);
    const Outcome rawPipes = runCli("filter - --raw f64" + spec + "-o " + fifo + " < " + dir.file("in.raw") + " & cat " +
                                        fifo + " > " + dir.file("got4.raw") + "; wait $!", dir);
    EXPECT_EQ(rawPipes.exitCode, 0) << rawPipes.err;
    EXPECT_TRUE(test::readFile(dir.file("got4.raw")) == test::readFile(dir.file("memory.raw")));
    EXPECT_EQ(test::readFile(dir.file("got4.raw")).size(), 700u * 8);
  }
}

TEST(StreamCli, AMalformedLineDeepInStandardInputIsNamedAndNothingReachesThePipe) {
  test::TempDir dir;
  std::string text;
  for (int i = 0; i < 30000; ++i) text += std::to_string(i % 89) + ".5\n";
  text += "0.5.5\n1\n";
  test::writeFile(dir.file("in.txt"), text);
  const Outcome piped =
      filterThroughPipes(dir, "cat " + dir.file("in.txt") + " | ", "- -q --stream-block 100 -o -", dir.file("got.txt"));
  EXPECT_EQ(piped.exitCode, 3);
  EXPECT_NE(piped.err.find("standard input:30001:1: expected a number"), std::string::npos) << piped.err;
  EXPECT_EQ(test::readFile(dir.file("got.txt")), "");
  // Raw samples are read block by block: 300 blocks were filtered before the NaN was reached.
  std::vector<double> raw(30010, 0.5);
  raw[30000] = std::nan("");
  test::writeFile(dir.file("in.raw"), std::string(reinterpret_cast<const char*>(raw.data()), raw.size() * sizeof(double)));
  const Outcome rawPiped = filterThroughPipes(dir, "cat " + dir.file("in.raw") + " | ",
                                              "- --raw f64 -q --stream-block 100 -o -", dir.file("got-raw.txt"));
  EXPECT_EQ(rawPiped.exitCode, 3);
  EXPECT_NE(rawPiped.err.find("standard input: sample 30001 is NaN"), std::string::npos) << rawPiped.err;
  EXPECT_EQ(test::readFile(dir.file("got-raw.txt")), "");
}

// Ctrl-C while a result streams to standard output: nothing was written there, and it says so.
TEST(StreamCli, InterruptedIntoStandardOutputWritesNothingThere) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 400000 --seed 2 -o " + dir.file("in.txt"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -q -w 1 -o " + dir.file("in.npy"), dir).exitCode, 0);
  const std::string in = dir.file("in.npy");
  const pid_t pid = spawnSlowStreamedFilter(in, "-", dir);
  ASSERT_GT(pid, 0);
  // Streaming has begun once it says so on stderr; 400000 blocks of one output take far longer.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (test::readFile(dir.file("stderr.log")).find("stream:") == std::string::npos &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  int status = 0;
  const bool stillRunning = ::waitpid(pid, &status, WNOHANG) == 0;
  ::kill(pid, SIGINT);
  if (stillRunning) ::waitpid(pid, &status, 0);
  ASSERT_TRUE(stillRunning) << test::readFile(dir.file("stderr.log"));
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 130) << test::readFile(dir.file("stderr.log"));
  EXPECT_NE(test::readFile(dir.file("stderr.log")).find("standard output received nothing"), std::string::npos)
      << test::readFile(dir.file("stderr.log"));
  EXPECT_EQ(test::readFile(dir.file("stdout.log")), "");
}

}  // namespace
}  // namespace siglab
