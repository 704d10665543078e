// The CLI against a hostile but realistic user (issue 12): special outputs, standard streams,
// interruption, bounded arguments, non-finite values, checks before work; every message word for word.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "cli_run.hpp"
#include "memory_limit.hpp"
#include "test_support.hpp"

extern char** environ;

namespace siglab {
namespace {

namespace fs = std::filesystem;

using Outcome = test::CliOutcome;
using test::runCli;

using test::hasTemporaries;

// A device node made in the test's own folder, never the machine's /dev (needs CAP_MKNOD).
bool makeCharacterDevice(const std::string& path, unsigned major, unsigned minor) {
  return ::mknod(path.c_str(), S_IFCHR | 0666, makedev(major, minor)) == 0;
}

TEST(CliOutput, CharacterDevicesStayDevicesAndAFullOneSaysSo) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 2000 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string null = dir.file("null"), full = dir.file("full");
  if (!makeCharacterDevice(null, 1, 3) || !makeCharacterDevice(full, 1, 7)) GTEST_SKIP() << "mknod not permitted";
  const Outcome discarded = runCli("filter " + dir.file("in.txt") + " -b cpu-serial -o " + null, dir);
  EXPECT_EQ(discarded.exitCode, 0) << discarded.err;
  const Outcome noSpace = runCli("filter " + dir.file("in.txt") + " -b cpu-serial -o " + full, dir);
  EXPECT_EQ(noSpace.exitCode, 3);
  const std::string noSpaceLine = "siglab-cli filter: " + full + ": write failed: No space left on device\n";
  ASSERT_GE(noSpace.err.size(), noSpaceLine.size()) << noSpace.err;  // after the engine's and verify's lines
  EXPECT_EQ(noSpace.err.substr(noSpace.err.size() - noSpaceLine.size()), noSpaceLine);
  EXPECT_EQ(runCli("generate -n 10 -o " + full, dir).err,
            "siglab-cli generate: " + full + ": write failed: No space left on device\n");
  for (const auto& [path, minor] : {std::pair{null, 3u}, std::pair{full, 7u}}) {
    struct stat s {};
    ASSERT_EQ(::lstat(path.c_str(), &s), 0);
    EXPECT_TRUE(S_ISCHR(s.st_mode)) << path;
    EXPECT_EQ(::minor(s.st_rdev), minor);
  }
  EXPECT_FALSE(hasTemporaries(dir));
}

TEST(CliOutput, APipeReceivesTheBytes) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 30000 --seed 4 -o " + dir.file("file.txt"), dir).exitCode, 0);
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::string received;
  std::thread reader([&] { received = test::readFile(fifo); });
  const Outcome o = runCli("generate -n 30000 --seed 4 -o " + fifo, dir);
  reader.join();
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_TRUE(received == test::readFile(dir.file("file.txt")));
  struct stat s {};
  ASSERT_EQ(::lstat(fifo.c_str(), &s), 0);
  EXPECT_TRUE(S_ISFIFO(s.st_mode));
}

TEST(CliOutput, ASymlinksTargetIsReplacedAndTheLinkKept) {
  test::TempDir dir;
  test::writeFile(dir.file("target.txt"), "old\n");
  fs::create_symlink("target.txt", dir.file("link.txt"));
  ASSERT_EQ(runCli("generate -n 5 -o " + dir.file("link.txt"), dir).exitCode, 0);
  EXPECT_TRUE(fs::is_symlink(dir.file("link.txt")));
  ASSERT_EQ(runCli("generate -n 5 -o " + dir.file("plain.txt"), dir).exitCode, 0);
  EXPECT_EQ(test::readFile(dir.file("target.txt")), test::readFile(dir.file("plain.txt")));
}

TEST(CliOutput, DashIsStandardOutputAndTheTableGoesToStderr) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 3001 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string filter = "compare " + dir.file("in.txt") + " -b cpu-serial,cpu-parallel -w 9 ";
  ASSERT_EQ(runCli(filter + "-o " + dir.file("file.txt"), dir).exitCode, 0);
  const std::string apply = "filter " + dir.file("in.txt") + " -e cpu-parallel -w 9 ";
  const Outcome applied = runCli(apply + "-o - | cmp - " + dir.file("file.txt"), dir);
  EXPECT_EQ(applied.exitCode, 0) << applied.out << applied.err;
  EXPECT_NE(applied.err.find("wrote -: 3001 samples filtered by cpu-parallel"), std::string::npos) << applied.err;
  const Outcome piped = runCli(filter + "-o - | cmp - " + dir.file("file.txt"), dir);
  EXPECT_EQ(piped.exitCode, 0) << piped.out << piped.err;  // cmp's status: the bytes match
  EXPECT_NE(piped.err.find("cpu-parallel"), std::string::npos) << "the table goes to stderr";
  EXPECT_NE(piped.err.find("wrote - (cpu-serial result)"), std::string::npos) << piped.err;
  const Outcome npy = runCli(filter + "-o - --report " + dir.file("r.json"), dir);
  EXPECT_EQ(npy.out, test::readFile(dir.file("file.txt")));
  EXPECT_TRUE(fs::exists(dir.file("r.json")));
}

TEST(CliInput, DashIsStandardInputInEveryFormat) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 777 -o " + dir.file("in.txt"), dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + dir.file("in.txt") + " -b cpu-serial -w 1 -o " + dir.file("in.npy"), dir).exitCode, 0);
  const Outcome byName = runCli("stats " + dir.file("in.txt"), dir);
  EXPECT_EQ(runCli("stats - < " + dir.file("in.txt"), dir).out, byName.out);
  EXPECT_EQ(runCli("stats - < " + dir.file("in.npy"), dir).out, byName.out);
  EXPECT_EQ(runCli("stats - ", dir, "cat " + dir.file("in.npy") + " | ").out, byName.out);  // a pipe, not a file
  test::writeFile(dir.file("empty.txt"), "");
  const Outcome empty = runCli("stats - < " + dir.file("empty.txt"), dir);
  EXPECT_EQ(empty.exitCode, 3);
  EXPECT_EQ(empty.err, "siglab-cli stats: standard input: the file is empty: expected one number per line\n");
}

// `stats INPUT ARGS` on an endless writer's stream (WRITER | stats - or /dev/stdin; WRITER > INPUT, a FIFO): the CLI's
// outcome, and how the writer ended. A 64 MiB file-size limit and 20 s guards make a CLI that
// spools the endless stream fail (SIGXFSZ, or killed) instead of filling the disk or hanging.
struct EndlessOutcome {
  Outcome cli;
  std::string writerStatus;
  std::string writerErr;
};

EndlessOutcome statsOfEndlessWriter(const std::string& writer, const std::string& input, const std::string& args,
                                    const test::TempDir& dir) {
  const std::string cli = "TMPDIR=" + dir.path().string() + " timeout -s KILL 20 " + SIGLAB_CLI_PATH + " stats " +
                          input + " " + args + " >" + dir.file("stdout.log") + " 2>" + dir.file("stderr.log") +
                          "; echo $? >" + dir.file("cli.status");
  const std::string writerRun = "timeout -s KILL 20 " + writer + " 2>" + dir.file("writer.err");
  std::string script = "ulimit -f 65536\n";
  if (input == "-" || input == "/dev/stdin") {
    script += "{ " + writerRun + "; echo $? >" + dir.file("writer.status") + "; } | { " + cli + "; }\n";
  } else {  // a FIFO: held open for reading until the CLI has it, so that its first read finds the writer
    script += "{ " + writerRun + " >" + input + "; echo $? >" + dir.file("writer.status") + "; } &\nexec 3<" + input +
              "\n" + cli + " 3<&-\nexec 3<&-\nwait\n";
  }
  test::writeFile(dir.file("endless.sh"), script);
  std::system(("bash " + dir.file("endless.sh")).c_str());
  const auto trimmed = [](std::string s) { return s.substr(0, s.find('\n')); };
  return {{std::atoi(test::readFile(dir.file("cli.status")).c_str()), test::readFile(dir.file("stdout.log")),
           test::readFile(dir.file("stderr.log"))},
          trimmed(test::readFile(dir.file("writer.status"))), test::readFile(dir.file("writer.err"))};
}

TEST(CliInput, StatsOfARangeStopReadingAnEndlessStreamAtTheRangesEnd) {
  test::TempDir dir;
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  struct Case {
    std::string writer, input, args, sameAsFile;  // sameAsFile: the stream's first bytes, as a regular file
  };
  std::string csv = "time,value\n", ones, threes;
  for (int i = 0; i < 20; ++i) csv += "0.5,2.5\n", ones += "1\n", threes += "3\n";
  // Comments past the first bytes read, then a range read on through several more.
  std::string longer = std::string(100 << 10, '#') + "\nt;v\n";
  for (int i = 0; i < 90000; ++i) longer += std::to_string(i) + ";" + std::to_string(i % 7) + ",5\n";
  test::writeFile(dir.file("longer.txt"), longer);
  const Case cases[] = {
      {"yes 1", "-", "--range 0:5", ones},
      {"sh -c 'echo time,value; exec yes 0.5,2.5'", "/dev/stdin", "--column 2 --skip-header --range 1:4", csv},
      {"yes 1", "-", "--raw i16 --range 0:5", ones.substr(0, 10)},  // "1\n" is the i16 2609
      {"yes 3", dir.file("fifo"), "--range 2:7", threes},
      {"sh -c 'cat " + dir.file("longer.txt") + "; exec yes \"0;0\"'", "-",
       "--skip-header --column 2 --decimal , --range 0:89995", longer},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.writer + " | stats " + c.input + " " + c.args);
    const EndlessOutcome endless = statsOfEndlessWriter(c.writer, c.input, c.args, dir);
    ASSERT_EQ(endless.cli.exitCode, 0) << endless.cli.err;
    test::writeFile(dir.file("same.txt"), c.sameAsFile);
    EXPECT_EQ(endless.cli.out, runCli("stats " + dir.file("same.txt") + " " + c.args, dir).out);
    const std::string count = c.input == "/dev/stdin" ? "3" : c.sameAsFile == longer ? "89995" : "5";
    EXPECT_NE(endless.cli.out.find("count: " + count + "\n"), std::string::npos) << endless.cli.out;
    // The writer was stopped by the closed pipe (SIGPIPE, or EPIPE where SIGPIPE is ignored), not by the guard.
    EXPECT_TRUE(endless.writerStatus == "141" || endless.writerErr.find("Broken pipe") != std::string::npos)
        << endless.writerStatus << " " << endless.writerErr;
  }
}

TEST(CliOutput, OutputsAreCheckedBeforeAnyWork) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 100 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string in = dir.file("in.txt"), out = dir.file("out.txt");
  const std::string filter = "compare " + in + " -b cpu-serial --repeat 100000 ";  // hours of work if checked late
  const auto start = std::chrono::steady_clock::now();
  const Outcome same = runCli(filter + "-o " + out + " --report " + out, dir);
  EXPECT_EQ(same.exitCode, 2);
  EXPECT_EQ(same.err, "siglab-cli compare: -o " + out + " and --report " + out +
                          " are the same file: choose different names\n");
  const Outcome input = runCli(filter + "-o " + in, dir);
  EXPECT_EQ(input.exitCode, 2);
  EXPECT_EQ(input.err, "siglab-cli compare: -o " + in + " is the input " + in + ": choose another name\n");
  const Outcome applyInput = runCli("filter " + in + " -o " + in, dir);
  EXPECT_EQ(applyInput.exitCode, 2);
  EXPECT_EQ(applyInput.err, "siglab-cli filter: -o " + in + " is the input " + in + ": choose another name\n");
  const Outcome folder = runCli(filter + "-o " + out + " --report " + dir.file("none/r.json"), dir);
  EXPECT_EQ(folder.exitCode, 3);
  EXPECT_EQ(folder.err, "siglab-cli compare: " + dir.file("none/r.json") + ": cannot write: the folder " +
                            dir.file("none") + " does not exist\n");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  EXPECT_FALSE(fs::exists(out));
}

// Every command that writes refuses an output that is one of its inputs, by the same name, a
// hard link or a symlink, before any work, and leaves the input as it was.
TEST(CliOutput, EveryCommandThatWritesRefusesItsOwnInput) {
  test::TempDir dir;
  const std::string in = dir.file("in.txt"), npy = dir.file("in.npy"), taps = dir.file("taps.txt");
  ASSERT_EQ(runCli("generate -n 300 -o " + in, dir).exitCode, 0);
  ASSERT_EQ(runCli("filter " + in + " -b cpu-serial -w 1 -o " + npy, dir).exitCode, 0);
  test::writeFile(taps, "0.25\n0.5\n0.25\n");
  struct Case {
    std::string command, run, option, input;  // `run` takes the output's name at its end
  };
  const std::vector<Case> cases = {
      {"filter", "filter " + in + " -w 3 -o ", "-o", in},
      {"filter", "filter " + in + " --taps " + taps + " -o ", "-o", taps},
      {"compare", "compare " + in + " -b cpu-serial -w 3 -o ", "-o", in},
      {"compare", "compare " + in + " -b cpu-serial -w 3 --report ", "--report", in},
      {"spectrum", "spectrum " + in + " --segment 64 -o ", "-o", in},
      {"spectrum", "spectrum " + npy + " --segment 64 -o ", "-o", npy},
      {"response", "response --taps " + taps + " -o ", "-o", taps},
  };
  for (const Case& c : cases) {
    const std::string before = test::readFile(c.input);
    const std::string suffix = fs::path(c.input).extension().string();
    const std::string hard = dir.file("hard" + suffix), soft = dir.file("soft" + suffix);
    fs::remove(hard);
    fs::remove(soft);
    fs::create_hard_link(c.input, hard);
    fs::create_symlink(c.input, soft);
    for (const std::string& output : {c.input, hard, soft}) {
      const Outcome o = runCli(c.run + output, dir);
      EXPECT_EQ(o.exitCode, 2) << c.run << output;
      EXPECT_EQ(o.err, "siglab-cli " + c.command + ": " + c.option + " " + output + " is the input " + c.input +
                           ": choose another name\n");
      EXPECT_EQ(test::readFile(c.input), before) << c.run << output;
    }
  }
  EXPECT_FALSE(hasTemporaries(dir));
}

TEST(CliOutput, NamesThatCannotBeWrittenAreRefusedInWordsBeforeAnyWork) {
  test::TempDir dir;
  const std::string in = dir.file("in.txt");
  test::writeFile(in, "1\n2\n3\n");
  const std::string empty = ": the output's name is empty: name a file, or - for standard output\n";
  const std::vector<std::pair<std::string, std::string>> usage = {
      {"filter " + in + " -o \"\"", "siglab-cli filter: -o" + empty},
      {"compare " + in + " -b cpu-serial --report \"\"", "siglab-cli compare: --report" + empty},
      {"spectrum " + in + " --segment 2 -o \"\"", "siglab-cli spectrum: -o" + empty},
      {"response -o \"\"", "siglab-cli response: -o" + empty},
      {"generate -n 5 -o \"\"", "siglab-cli generate: -o" + empty},
  };
  for (const auto& [args, message] : usage) {
    const Outcome o = runCli(args, dir);
    EXPECT_EQ(o.exitCode, 2) << args;
    EXPECT_EQ(o.err, message);
    EXPECT_EQ(o.out, "") << args;  // nothing done
  }
  const std::string loop = dir.file("loop");
  fs::create_symlink("loop", loop);
  const Outcome looped = runCli("filter " + in + " -o " + loop, dir);
  EXPECT_EQ(looped.exitCode, 3);
  EXPECT_EQ(looped.err, "siglab-cli filter: " + loop + ": cannot write: too many levels of symbolic links (a loop?)\n");
  const std::string longName = dir.file(std::string(246, 'n') + ".txt");  // 250 characters
  const Outcome named = runCli("filter " + in + " -w 1 -o " + longName, dir);
  EXPECT_EQ(named.exitCode, 0) << named.err;
  EXPECT_EQ(test::readFile(longName), "1.0000000000000000\n2.0000000000000000\n3.0000000000000000\n");
  EXPECT_FALSE(hasTemporaries(dir));
}

TEST(CliOutput, AReadOnlyFileIsNotReplacedForAnOrdinaryUser) {
  if (::geteuid() != 0) GTEST_SKIP() << "runs as root and drops to nobody with setpriv";
  test::TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);  // the folder alone would allow the rename
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n");
  ASSERT_EQ(::chmod(dir.file("in.txt").c_str(), 0644), 0);
  const std::string readOnly = dir.file("ro.txt");
  test::writeFile(readOnly, "old\n");
  ASSERT_EQ(::chmod(readOnly.c_str(), 0444), 0);
  const test::TempDir logs;
  ASSERT_EQ(::chmod(logs.path().c_str(), 0777), 0);
  const std::string nobody = "setpriv --reuid=65534 --regid=65534 --clear-groups ";
  const std::string refused = readOnly + ": cannot write: Permission denied (the file is not writable)\n";
  const Outcome filtered = runCli("filter " + dir.file("in.txt") + " -o " + readOnly, logs, nobody);
  EXPECT_EQ(filtered.exitCode, 3);
  EXPECT_EQ(filtered.err, "siglab-cli filter: " + refused);
  const Outcome generated = runCli("generate -n 5 -o " + readOnly, logs, nobody);
  EXPECT_EQ(generated.exitCode, 3);
  EXPECT_EQ(generated.err, "siglab-cli generate: " + refused);
  EXPECT_EQ(test::readFile(readOnly), "old\n");
  EXPECT_FALSE(hasTemporaries(dir));
}

TEST(CliOutput, AnOrdinaryUserIsToldTheFolderIsNotWritable) {
  if (::geteuid() != 0) GTEST_SKIP() << "runs as root and drops to nobody with setpriv";
  test::TempDir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n");
  ASSERT_EQ(::chmod(dir.file("in.txt").c_str(), 0644), 0);
  const test::TempDir logs;  // nobody must be able to write the logs
  ASSERT_EQ(::chmod(logs.path().c_str(), 0777), 0);
  const std::string out = dir.file("out.txt");
  const Outcome o = runCli("filter " + dir.file("in.txt") + " -o " + out, logs,
                           "setpriv --reuid=65534 --regid=65534 --clear-groups ");
  EXPECT_EQ(o.exitCode, 3);
  EXPECT_EQ(o.err, "siglab-cli filter: " + out + ": cannot write in the folder " + dir.path().string() +
                       ": Permission denied\n");
  const Outcome generate = runCli("generate -n 5 -o " + out, logs, "setpriv --reuid=65534 --regid=65534 --clear-groups ");
  EXPECT_EQ(generate.exitCode, 3);
  EXPECT_FALSE(fs::exists(out));
}

// Starts siglab-cli with `args`, its output going to files in `dir`.
pid_t spawnCli(const std::vector<std::string>& args, const test::TempDir& dir) {
  std::vector<std::string> all = {SIGLAB_CLI_PATH};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, dir.file("spawn-out.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, dir.file("spawn-err.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = -1;
  const int failed = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  return failed ? -1 : pid;
}

// A 2M-sample export (39 MB of text, a fifth of a second here); the moments are spread over a
// whole uninterrupted run, so some land before, during and after the rename.
TEST(CliInterrupt, SignalsAtRandomMomentsLeaveOldOrNewFileAndNoTemporary) {
  test::TempDir dir;
  const std::string target = dir.file("export.txt");
  // Half a million samples (10 MB, several write blocks): the random moments below span one whole
  // run however long it takes, so a longer file would only make the 40 runs slower (issue 30: CI time).
  const std::string samples = "500000";
  const std::vector<std::string> generateNew = {"generate", "-n", samples, "--seed", "2", "-o", target};
  ASSERT_EQ(runCli("generate -n " + samples + " --seed 2 -o " + dir.file("new.txt"), dir).exitCode, 0);
  const std::string fresh = test::readFile(dir.file("new.txt"));
  const std::string old = "the old file\n";
  const auto start = std::chrono::steady_clock::now();
  ASSERT_EQ(runCli("generate -n " + samples + " --seed 2 -o " + target, dir).exitCode, 0);
  const auto oneRun = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> moment(0, oneRun.count());
  int interrupted = 0;
  for (int signal : {SIGINT, SIGTERM}) {
    for (int attempt = 0; attempt < 20; ++attempt) {
      test::writeFile(target, old);
      const pid_t child = spawnCli(generateNew, dir);
      ASSERT_GT(child, 0);
      std::this_thread::sleep_for(std::chrono::microseconds(moment(rng)));
      ::kill(child, signal);
      int status = 0;
      ::waitpid(child, &status, 0);
      const std::string now = test::readFile(target);
      EXPECT_TRUE(now == old || now == fresh) << "signal " << signal << ", attempt " << attempt;
      EXPECT_FALSE(hasTemporaries(dir)) << "signal " << signal << ", attempt " << attempt;
      if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        ++interrupted;
        EXPECT_EQ(WEXITSTATUS(status), 128 + signal);
        EXPECT_EQ(now, old);
        EXPECT_EQ(test::readFile(dir.file("spawn-err.log")),
                  "siglab-cli generate: interrupted by " + std::string(signal == SIGINT ? "SIGINT" : "SIGTERM") + "; " +
                      target + " kept as it was, no temporary file left\n");
      }
    }
  }
  EXPECT_GT(interrupted, 0) << "no attempt was interrupted during the work";
}

TEST(CliInterrupt, HangupExits129) {
  test::TempDir dir;
  const pid_t child = spawnCli({"compare", SIGLAB_SAMPLE_PATH, "-b", "cpu-serial", "--repeat", "100000", "-w", "4001",
                                "-o", dir.file("r.txt")},
                               dir);
  ASSERT_GT(child, 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  ::kill(child, SIGHUP);
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 129);
  EXPECT_EQ(test::readFile(dir.file("spawn-err.log")),
            "siglab-cli compare: interrupted by SIGHUP; " + dir.file("r.txt") + " not created, no temporary file left\n");
}

// Returns once `child`'s main thread sleeps (it waits on something), at most 10 s: the moment a
// signal tests what ends that wait.
bool sleeps(pid_t child) {
  for (int i = 0; i < 2000; ++i) {
    const std::string stat = test::readFile("/proc/" + std::to_string(child) + "/stat");
    const std::size_t state = stat.rfind(") ");
    if (state != std::string::npos && stat.compare(state + 2, 1, "S") == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

// Returns once the pipe `reader` holds most of a 64 KiB pipe's bytes (its writer is about to wait
// for room), at most 10 s.
bool fills(int reader) {
  for (int i = 0; i < 2000; ++i) {
    int waiting = 0;
    if (::ioctl(reader, FIONREAD, &waiting) == 0 && waiting >= 60'000) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return false;
}

void drain(int reader) {
  char buffer[65536];
  int waiting = 0;
  while (::ioctl(reader, FIONREAD, &waiting) == 0 && waiting > 0) {
    if (::read(reader, buffer, sizeof buffer) <= 0) break;
  }
}

// Sends `signal` to `child` and returns its exit code; -1 when it died of a signal or was still
// running 10 s later (then it is killed: deaf to the signal).
int exitCodeAfter(pid_t child, int signal) {
  ::kill(child, signal);
  for (int i = 0; i < 1000; ++i) {
    int status = 0;
    if (::waitpid(child, &status, WNOHANG) == child) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  return -1;
}

// Issue 24: a FIFO nobody reads, or whose reader stopped reading, left filter and generate deaf
// to SIGTERM (a second signal killed them silently).
TEST(CliInterrupt, AnOutputFifoNobodyReadsEndsAtTheFirstSignal) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 200000 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string fifo = dir.file("out.pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const std::vector<std::vector<std::string>> runs = {{"generate", "-n", "10", "-o", fifo},
                                                      {"filter", dir.file("in.txt"), "-q", "-o", fifo}};
  for (const bool readerStopped : {false, true}) {
    // The reader that stopped: an end held open that is never read (4 MB of text fill the pipe).
    const int reader = readerStopped ? ::open(fifo.c_str(), O_RDWR | O_CLOEXEC) : -1;
    for (std::vector<std::string> args : runs) {
      if (readerStopped && args[0] == "generate") args[2] = "200000";
      SCOPED_TRACE(args[0] + (readerStopped ? ", the reader stopped" : ", no reader"));
      const pid_t child = spawnCli(args, dir);
      ASSERT_GT(child, 0);
      if (readerStopped) ASSERT_TRUE(fills(reader));
      ASSERT_TRUE(sleeps(child));
      EXPECT_EQ(exitCodeAfter(child, SIGTERM), 128 + SIGTERM);
      EXPECT_NE(test::readFile(dir.file("spawn-err.log")).find("interrupted by SIGTERM"), std::string::npos)
          << test::readFile(dir.file("spawn-err.log"));
      EXPECT_FALSE(hasTemporaries(dir));
      if (readerStopped) drain(reader);
    }
    if (reader >= 0) ::close(reader);
  }
  struct stat s {};
  ASSERT_EQ(::lstat(fifo.c_str(), &s), 0);
  EXPECT_TRUE(S_ISFIFO(s.st_mode));
}

// An input FIFO whose writer sends nothing: the same (this one already held before issue 24, as
// the wait is in the reader, where a watcher thread ends the process).
TEST(CliInterrupt, AnInputFifoWhoseWriterSendsNothingEndsAtTheFirstSignal) {
  test::TempDir dir;
  const std::string fifo = dir.file("in.pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  const int writer = ::open(fifo.c_str(), O_RDWR | O_CLOEXEC);  // a writer that never writes
  ASSERT_GE(writer, 0);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"filter", fifo, "-o", dir.file("out.txt")},
                                               std::vector<std::string>{"filter", fifo, "--butter", "4,0.2", "-o", dir.file("out.txt")},
                                               std::vector<std::string>{"stats", fifo}}) {
    SCOPED_TRACE(args[0] + " " + args[1] + (args.size() > 2 ? " " + args[2] : ""));
    const pid_t child = spawnCli(args, dir);
    ASSERT_GT(child, 0);
    ASSERT_TRUE(sleeps(child));
    EXPECT_EQ(exitCodeAfter(child, SIGTERM), 128 + SIGTERM);
    EXPECT_NE(test::readFile(dir.file("spawn-err.log")).find("interrupted by SIGTERM"), std::string::npos)
        << test::readFile(dir.file("spawn-err.log"));
    EXPECT_FALSE(fs::exists(dir.file("out.txt")));
    EXPECT_FALSE(hasTemporaries(dir));
  }
  ::close(writer);
}

// "At once" is a bound far below the work a refusal avoids (10^14 multiply-adds: hours), and far above
// a process start on a loaded machine or one probing its GPUs (seconds under a parallel GPU suite).
TEST(CliBounds, AHugeWindowFinishesOrIsRefusedAtOnce) {
  constexpr auto atOnce = std::chrono::seconds(5);
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 1000 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string filter = "compare " + dir.file("in.txt") + " -b cpu-serial,cpu-parallel -o " + dir.file("r.txt");
  auto start = std::chrono::steady_clock::now();
  const Outcome zero = runCli(filter + " --window 1000000001", dir);
  EXPECT_EQ(zero.exitCode, 0) << zero.err;
  EXPECT_NE(zero.out.find("note: the window's 1000000001 taps were cropped to the 1999 that can meet a sample"),
            std::string::npos) << zero.out;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
  start = std::chrono::steady_clock::now();
  const Outcome reflect = runCli(filter + " --window 99999999999 --mode reflect", dir);
  EXPECT_LT(std::chrono::steady_clock::now() - start, atOnce);
  EXPECT_EQ(reflect.exitCode, 2);
  EXPECT_EQ(reflect.err, "siglab-cli compare: --window W 99999999999 is too long for 1000 samples in reflect mode: at "
                         "most 67107 taps (2N - 1, or up to 67108864 multiply-adds in all); zero mode takes any window\n");
  start = std::chrono::steady_clock::now();
  const Outcome gaussian = runCli(filter + " --gaussian 1e9", dir);
  EXPECT_LT(std::chrono::steady_clock::now() - start, atOnce);
  EXPECT_EQ(gaussian.exitCode, 2);
  EXPECT_EQ(gaussian.err, "siglab-cli compare: --gaussian: Gaussian sigma 1e+09 needs 8000000001 taps; at most 268435457 "
                          "are built (sigma up to 33554432)\n");
}

// Each of these once allocated gigabytes that its argument asked for and the data did not need
// (issue 24: --verify, --stream-block, response, --gaussian): under a 2 GiB address space, each
// either finishes or is refused with its bound.
TEST(CliBounds, MemoryFollowsTheDataNotTheArgument) {
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 100 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string limit = test::withinAddressSpace(test::kBoundedAddressSpace);
  const std::string filter = "filter " + dir.file("in.txt") + " -o " + dir.file("r.txt") + " --engine cpu-serial";
  const Outcome verify = runCli(filter + " --verify 300000000", dir, limit);
  EXPECT_EQ(verify.exitCode, 0) << verify.err;
  EXPECT_NE(verify.err.find("verify: 100 outputs recomputed"), std::string::npos) << verify.err;
  const Outcome block = runCli(filter + " --stream always --stream-block 1073741824", dir, limit);
  EXPECT_EQ(block.exitCode, 0) << block.err;
  const Outcome mean = runCli("response --window 400000001 -o " + dir.file("mean.csv"), dir, limit);
  EXPECT_EQ(mean.exitCode, 0) << mean.err;
  EXPECT_NE(mean.out.find("the response of 400000001 taps"), std::string::npos) << mean.out;
  const Outcome gaussian = runCli("response --gaussian 1e8 -o " + dir.file("g.csv"), dir, limit);
  EXPECT_EQ(gaussian.exitCode, 2);
  EXPECT_EQ(gaussian.err, "siglab-cli response: --gaussian: Gaussian sigma 1e+08 needs 800000001 taps; at most "
                          "268435457 are built (sigma up to 33554432)\n");
  EXPECT_FALSE(fs::exists(dir.file("g.csv")));
  // A Gaussian past 2^20 taps waits for the signal's size: 199 taps held, not 96 million (three
  // copies of them once: 2.3 GB).
  const Outcome wide = runCli(filter + " --gaussian 12000000", dir, test::withinAddressSpace(std::uint64_t{1} << 30));
  EXPECT_EQ(wide.exitCode, 0) << wide.err;
  EXPECT_NE(wide.out.find("note: the window's 96000001 taps were cropped to the 199 that can meet a sample"),
            std::string::npos) << wide.out;
}

TEST(CliBounds, SavgolRefusesAnOrderPastItsBoundBeforeAnyWork) {
  // --savgol 1001,1000 took 15 s to refuse 100 samples (the coefficients were fitted first).
  test::TempDir dir;
  ASSERT_EQ(runCli("generate -n 100 -o " + dir.file("in.txt"), dir).exitCode, 0);
  const std::string filter = "filter " + dir.file("in.txt") + " -o " + dir.file("r.txt");
  const Outcome order = runCli(filter + " --savgol 1001,1000", dir);
  EXPECT_EQ(order.exitCode, 2);
  EXPECT_EQ(order.err, "siglab-cli filter: --savgol ORDER must be a whole number from 0 to 32, got \"1000\"\n");
  const Outcome work = runCli(filter + " --savgol 20001,20", dir);
  EXPECT_EQ(work.exitCode, 2);
  EXPECT_TRUE(work.err.starts_with("siglab-cli filter: --savgol: savgol W = 20001, order 20 with interp edges needs "
                                   "26461323 steps to fit its coefficients (W (ORDER + 1)^2, three times with the edges' "
                                   "fits); at most 8388608 (about 0.2 s)"))
      << work.err;
  EXPECT_FALSE(fs::exists(dir.file("r.txt")));
}

TEST(CliBounds, OptionErrorsNameTheOptionAndTheRangeInWords) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "1\n2\n3\n");
  const std::string filter = "filter " + dir.file("in.txt") + " -o " + dir.file("r.txt");
  const std::string help = "Run with --help for more information.\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"generate -n -1 -o " + dir.file("g.txt"), "--samples: must be a whole number from 1 to 2^62, got \"-1\"\n"},
      {"generate -n 10 --period nan -o " + dir.file("g.txt"),
       "--period: must be a finite number above 0 up to 1.79769e+308, got \"nan\"\n"},
      {"generate -n 10 --noise inf -o " + dir.file("g.txt"),
       "--noise: must be a finite number from 0 to 1e+100, got \"inf\"\n"},
      {filter + " --gaussian nan", "--gaussian: must be a finite number above 0 up to 1e+17, got \"nan\"\n"},
      {filter + " --gaussian -2", "--gaussian: must be a finite number above 0 up to 1e+17, got \"-2\"\n"},
      {filter + " --window -1", "--window: must be a whole number from 1 to 2^62 - 1, got \"-1\"\n"},
      {filter + " --window 99999999999999999999999",
       "--window: must be a whole number from 1 to 2^62 - 1, got \"99999999999999999999999\"\n"},
      {filter + " --column -3", "--column: must be a whole number from 1 to 2^63 - 1, got \"-3\"\n"},
      {filter + " --gpu-memory-budget -1",
       "--gpu-memory-budget: must be a whole number from 0 to 16777216 (16 TiB), got \"-1\"\n"},
  };
  for (const auto& [args, message] : cases) {
    const Outcome o = runCli(args, dir);
    EXPECT_EQ(o.exitCode, 2) << args;
    EXPECT_EQ(o.err, message + help) << args;
  }
  EXPECT_FALSE(fs::exists(dir.file("r.txt")));
  EXPECT_FALSE(fs::exists(dir.file("g.txt")));
}

// A negative value for an unsigned option is refused as negative, naming the option, in every
// command (CLI11 would wrap "-3" to 2^64 - 3); where a range check comes first, it says the range.
TEST(CliBounds, NegativeValuesOfUnsignedOptionsAreRefusedAsNegative) {
  test::TempDir dir;
  const std::string in = dir.file("in.txt");
  test::writeFile(in, "1\n2\n3\n4\n5\n");
  const std::string out = " -o " + dir.file("r.txt");
  const std::string negative = ": must not be negative (a whole number, 0 or more), got ";
  const std::string medianRange = ": must be a whole number from 1 to 16777216, got ";  // the registry's range
  const std::string help = "Run with --help for more information.\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"filter " + in + out + " --median -3", "--median" + medianRange + "\"-3\"\n"},
      {"filter " + in + out + " --verify -1", "--verify" + negative + "\"-1\"\n"},
      {"compare " + in + out + " --median -3", "--median" + medianRange + "\"-3\"\n"},
      {"spectrum " + in + out + " --overlap -1", "--overlap" + negative + "\"-1\"\n"},
      {"spectrum " + in + out + " --segment -4", "--segment" + negative + "\"-4\"\n"},
      {"response" + out + " --median -3", "--median" + medianRange + "\"-3\"\n"},
      {"reduce --seed -1", "--seed" + negative + "\"-1\"\n"},
      {"lab reverse --seed -2", "--seed" + negative + "\"-2\"\n"},
      {"response" + out + " --window 0", "--window: must be a whole number from 1 to 2^62 - 1, got \"0\"\n"},
      {"generate -n 0" + out, "--samples: must be a whole number from 1 to 2^62, got \"0\"\n"},
  };
  for (const auto& [args, message] : cases) {
    const Outcome o = runCli(args, dir);
    EXPECT_EQ(o.exitCode, 2) << args;
    EXPECT_EQ(o.err, message + help) << args;
  }
  EXPECT_FALSE(fs::exists(dir.file("r.txt")));
}

// Every ranged or listed option says, in the project's words, what it takes (CLI11's Range said
// "Value -1 not in range 1 to 100000", even for text; IsMember "--decimal: ; not in {.,,}").
TEST(CliBounds, RangedAndListedOptionsSayWhatTheyTakeInWords) {
  test::TempDir dir;
  const std::string in = dir.file("in.txt");
  test::writeFile(in, "1\n2\n3\n");
  const std::string out = " -o " + dir.file("r.txt");
  const std::string help = "Run with --help for more information.\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"compare " + in + " --repeat 0", "--repeat: must be a whole number from 1 to 100000, got \"0\"\n"},
      {"compare " + in + " --repeat -1", "--repeat: must be a whole number from 1 to 100000, got \"-1\"\n"},
      {"filter " + in + out + " --block-size 16", "--block-size: must be a whole number from 32 to 1024, got \"16\"\n"},
      {"lab reverse --repeat 0", "--repeat: must be a whole number from 1 to 10000, got \"0\"\n"},
      {"reduce --random-ints 32", "--random-ints: must be a whole number from 0 to 31, got \"32\"\n"},
      {"reduce --repeat abc", "--repeat: must be a whole number from 1 to 100000, got \"abc\"\n"},
      {"response" + out + " --points 0", "--points: must be a whole number from 1 to 16777216, got \"0\"\n"},
      {"filter " + in + out + " --decimal ';'", "--decimal: must be one of \".\", \",\", got \";\"\n"},
      {"filter " + in + out + " --dtype f16", "--dtype: must be one of \"f64\", \"f32\", got \"f16\"\n"},
      {"filter " + in + out + " --stream sometimes",
       "--stream: must be one of \"auto\", \"always\", \"never\", got \"sometimes\"\n"},
  };
  for (const auto& [args, message] : cases) {
    const Outcome o = runCli(args, dir);
    EXPECT_EQ(o.exitCode, 2) << args;
    EXPECT_EQ(o.err, message + help) << args;
  }
  EXPECT_FALSE(fs::exists(dir.file("r.txt")));
}

TEST(CliBounds, Float32TakesItsLargestValue) {
  test::TempDir dir;
  test::writeFile(dir.file("in.txt"), "3.40282347e+38\n-3.4028234663852886e+38\n1\n");
  const Outcome o = runCli("filter " + dir.file("in.txt") + " --dtype f32 -w 1 -b cpu-serial -o " + dir.file("r.txt"), dir);
  EXPECT_EQ(o.exitCode, 0) << o.err;
  EXPECT_EQ(test::readFile(dir.file("r.txt")).substr(0, 42), "340282346638528859811704183484516925440.00");
  test::writeFile(dir.file("big.txt"), "3.5e+38\n1\n");
  const Outcome big = runCli("filter " + dir.file("big.txt") + " --dtype f32 -w 1 -b cpu-serial -o " + dir.file("r.txt"), dir);
  EXPECT_EQ(big.exitCode, 3);
  EXPECT_NE(big.err.find("sample 1 (3.5e+38) is outside the float32 range"), std::string::npos) << big.err;
}

TEST(CliBounds, GenerateRefusesWhatMemoryCannotHold) {
  test::TempDir dir;
  const Outcome o = runCli("generate -n 4611686018427387904 -o " + dir.file("g.txt"), dir);
  EXPECT_EQ(o.exitCode, 2);
  EXPECT_TRUE(o.err.starts_with("siglab-cli generate: -n 4611686018427387904: not enough memory for "
                                "4611686018427387904 samples: needs 34359738368.0 GiB, "))
      << o.err;
  EXPECT_FALSE(fs::exists(dir.file("g.txt")));
}

TEST(CliStats, NonFiniteValuesFollowNumpy) {
  test::TempDir dir;
  test::writeFile(dir.file("inf.txt"), "1\ninf\n2\n");
  const Outcome inf = runCli("stats --allow-nonfinite " + dir.file("inf.txt"), dir);
  EXPECT_EQ(inf.out,
            "count: 3\nsum: inf\nmean: inf\nsumsq: inf\nrms: inf\nvariance: nan\nstd: nan\n"
            "min: 1\nmin_index: 0\nmax: inf\nmax_index: 1\n");
  test::writeFile(dir.file("nan.txt"), "1\n-inf\nnan\n5\nnan\n");
  const Outcome nan = runCli("stats --allow-nonfinite " + dir.file("nan.txt"), dir);
  EXPECT_EQ(nan.out,
            "count: 5\nsum: nan\nmean: nan\nsumsq: nan\nrms: nan\nvariance: nan\nstd: nan\n"
            "min: nan\nmin_index: 2\nmax: nan\nmax_index: 2\n");
}

TEST(CliProgress, ShownOnATerminalOnlyAndSilencedByQuiet) {
  test::TempDir dir;
  const Outcome plain = runCli("generate -n 300000 -o " + dir.file("a.txt"), dir);
  EXPECT_EQ(plain.err, "");  // stderr is a file here: no progress
  if (std::system("command -v script >/dev/null 2>&1") != 0) GTEST_SKIP() << "script (util-linux) is needed";
  const std::string cli = std::string(SIGLAB_CLI_PATH) + " generate -n 3000000 -o " + dir.file("b.txt");
  std::system(("script -qec '" + cli + "' " + dir.file("tty.log") + " >/dev/null 2>&1").c_str());
  const std::string shown = test::readFile(dir.file("tty.log"));
  EXPECT_NE(shown.find("writing " + dir.file("b.txt") + "  "), std::string::npos) << shown;
  EXPECT_NE(shown.find("%"), std::string::npos) << shown;
  std::system(("script -qec '" + cli + " --quiet' " + dir.file("quiet.log") + " >/dev/null 2>&1").c_str());
  EXPECT_EQ(test::readFile(dir.file("quiet.log")).find("writing"), std::string::npos);
}

}  // namespace
}  // namespace siglab
