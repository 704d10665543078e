// A median or a Butterworth in the CLI shows its progress on the terminal while it filters, and
// SIGINT during that run ends it with exit 130 and no output (issue 24, item 14: the engines of
// these kinds reported nothing, so the progress line never showed during the filtering).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "siglab/generate.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

extern char** environ;

namespace siglab {
namespace {

namespace fs = std::filesystem;

// siglab-cli with its standard error on a terminal of its own (a pseudo-terminal made for it),
// so that it draws its progress line there.
class OnTerminal {
 public:
  OnTerminal(std::vector<std::string> args, const test::TempDir& dir) {
    master_ = ::posix_openpt(O_RDWR | O_NOCTTY);
    if (master_ < 0 || ::grantpt(master_) != 0 || ::unlockpt(master_) != 0) return;
    const std::string terminal = ::ptsname(master_);
    args.insert(args.begin(), SIGLAB_CLI_PATH);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, dir.file("stdout.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, terminal.c_str(), O_RDWR | O_NOCTTY, 0);
    if (::posix_spawn(&pid_, argv[0], &actions, nullptr, argv.data(), environ) != 0) pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
  }
  ~OnTerminal() {
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (master_ >= 0) ::close(master_);
  }
  bool started() const { return pid_ > 0; }

  // Reads the terminal until `text` shows (true), or the program ends or 60 s pass (false).
  bool waitFor(const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (screen_.find(text) == std::string::npos) {
      if (std::chrono::steady_clock::now() > deadline || ended()) return false;
      pollfd p{master_, POLLIN, 0};
      if (::poll(&p, 1, 20) > 0) {
        char buffer[4096];
        const ssize_t n = ::read(master_, buffer, sizeof buffer);
        if (n > 0) screen_.append(buffer, static_cast<std::size_t>(n));
      }
    }
    return true;
  }
  void signal(int number) const { ::kill(pid_, number); }
  int exitCode() {
    if (!status_) {
      int status = 0;
      ::waitpid(pid_, &status, 0);
      status_ = status;
    }
    return WIFEXITED(*status_) ? WEXITSTATUS(*status_) : -1;
  }
  const std::string& screen() const { return screen_; }

 private:
  bool ended() {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) status_ = status;
    return status_.has_value();
  }
  int master_ = -1;
  pid_t pid_ = -1;
  std::optional<int> status_;
  std::string screen_;
};

std::vector<std::string> entriesOf(const test::TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path())) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Each is seconds of work for cpu-serial (a 2001-sample selection per output; 16 sections over
// 2 x 4M samples), so the signal lands while it filters.
TEST(CliCancel, AMedianAndAButterworthShowTheirProgressAndSigintEndsThemWithNoOutput) {
  test::TempDir dir;
  for (const auto& [name, count] : {std::pair{"short.npy", 100'000}, std::pair{"long.npy", 4'000'000}}) {
    GenerateOptions options;
    options.count = static_cast<std::uint64_t>(count);
    writeSignal(dir.file(name), generateSignal(options));
  }
  test::writeFile(dir.file("stdout.log"), "");  // there before each run: only the output could appear
  const std::vector<std::vector<std::string>> runs = {
      {"filter", dir.file("short.npy"), "--median", "2001", "-e", "cpu-serial", "-o", dir.file("median.npy")},
      {"filter", dir.file("long.npy"), "--butter", "32,0.1", "--zero-phase", "-e", "cpu-serial", "-o",
       dir.file("butter.npy")}};
  for (const auto& args : runs) {
    const std::vector<std::string> before = entriesOf(dir);
    OnTerminal cli(args, dir);
    ASSERT_TRUE(cli.started());
    const bool filtering = cli.waitFor("filtering  ");
    cli.signal(SIGINT);
    EXPECT_TRUE(filtering) << args[2] << ": no progress line while filtering; the terminal showed: " << cli.screen();
    EXPECT_EQ(cli.exitCode(), 130) << args[2];
    EXPECT_EQ(entriesOf(dir), before) << args[2] << ": no output and no temporary are left";
  }
}

}  // namespace
}  // namespace siglab
