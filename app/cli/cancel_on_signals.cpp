#include "cancel_on_signals.hpp"

#include <signal.h>
#include <unistd.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>

namespace siglab::cli {
namespace {

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

std::atomic<bool> cancelRequested{false};
std::atomic<int> signalReceived{0};
struct sigaction previous[3];

// Async-signal-safe: lock-free atomics only. SA_RESETHAND makes a second signal fatal at once.
extern "C" void requestCancel(int signal) {
  signalReceived.store(signal);
  cancelRequested.store(true);
  for (int other : kSignals) ::signal(other, SIG_DFL);  // async-signal-safe: a second signal ends the process
}

}  // namespace

CancelOnSignals::CancelOnSignals() {
  static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free);
  cancelRequested = false;
  signalReceived = 0;
  struct sigaction action {};
  action.sa_handler = requestCancel;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &action, &previous[i]);
  waits_ = std::make_unique<CancelWaitsInProcess>(&cancelRequested);
}

CancelOnSignals::~CancelOnSignals() {
  for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &previous[i], nullptr);
}

const std::atomic<bool>* CancelOnSignals::flag() const { return &cancelRequested; }

int CancelOnSignals::exitCode() { return 128 + signalReceived.load(); }

std::string CancelOnSignals::signalName() {
  switch (signalReceived.load()) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGHUP: return "SIGHUP";
    default: return {};
  }
}

}  // namespace siglab::cli

namespace siglab::cli {

ExitOnCancel::ExitOnCancel(const CancelOnSignals& signals, std::string command, std::vector<std::string> outputs,
                           bool spools) {
  watcher_ = std::thread([this, &signals, command = std::move(command), outputs = std::move(outputs), spools] {
    while (!done_.load()) {
      if (signals.flag()->load()) {
        const std::string line = interruptedLine(command, signals, outputs, spools) + "\n";
        if (::isatty(STDERR_FILENO) == 1) std::fputs("\r\033[K", stderr);  // over a progress line
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
        ::_exit(signals.exitCode());
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
}

ExitOnCancel::~ExitOnCancel() {
  done_ = true;
  watcher_.join();
}

std::string interruptedLine(const std::string& command, const CancelOnSignals& signals,
                            const std::vector<std::string>& outputs, bool spools) {
  const std::string name = signals.signalName().empty() ? "a signal" : signals.signalName();
  std::string line = "siglab-cli " + command + ": interrupted by " + name;
  const std::string received = spools ? " received nothing" : " received part of the output";
  for (const std::string& output : outputs) {
    struct stat s {};
    if (output == "-") {
      line += "; standard output" + received;
    } else if (::stat(output.c_str(), &s) != 0) {
      line += "; " + output + " not created";
    } else if (!S_ISREG(s.st_mode)) {
      line += "; " + output + received;
    } else {
      line += "; " + output + " kept as it was";
    }
  }
  return line + ", no temporary file left";
}

}  // namespace siglab::cli
