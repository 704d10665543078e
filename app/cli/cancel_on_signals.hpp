#pragma once
#include <atomic>
#include <memory>
#include <thread>
#include <string>
#include <vector>

#include "siglab/io/cancel_waits.hpp"
#include "siglab/progress.hpp"

namespace siglab::cli {

// While alive, SIGINT, SIGTERM and SIGHUP set the cancel flag that the work watches (the same
// siglab::Progress cancellation the GUI uses); the work then throws Cancelled, its temporaries
// are removed, and the command exits with exitCode(). Waits on another program (a FIFO nobody
// reads, a pipe's reader that stopped) end too (cancel_waits.hpp). A second signal ends the
// process at once.
class CancelOnSignals {
 public:
  CancelOnSignals();
  CancelOnSignals(const CancelOnSignals&) = delete;
  CancelOnSignals& operator=(const CancelOnSignals&) = delete;
  ~CancelOnSignals();

  const std::atomic<bool>* flag() const;
  Progress progress() const { return Progress{{}, flag()}; }
  // Static: main() still answers for a cancellation no command caught (a wait ended by a signal).
  static int exitCode();            // 128 + the signal: 130 (SIGINT), 143 (SIGTERM), 129 (SIGHUP)
  static std::string signalName();  // "SIGINT"; empty when none came

 private:
  std::unique_ptr<CancelWaitsInProcess> waits_;
};

}  // namespace siglab::cli

namespace siglab::cli {

// While alive, a cancellation ends the process at once, printing interruptedLine() and exiting with
// exitCode(): for work that cannot watch the flag (an engine's timed runs take no cancel flag yet),
// and only while no temporary file exists. A watcher thread polls the flag; the handler itself only
// sets it.
class ExitOnCancel {
 public:
  ExitOnCancel(const CancelOnSignals& signals, std::string command, std::vector<std::string> outputs,
               bool spools = false);
  ExitOnCancel(const ExitOnCancel&) = delete;
  ExitOnCancel& operator=(const ExitOnCancel&) = delete;
  ~ExitOnCancel();

 private:
  std::atomic<bool> done_{false};
  std::thread watcher_;
};

// The one line a cancelled command prints, saying what became of each output: "siglab-cli
// generate: interrupted by SIGINT; out.txt kept as it was, no temporary file left" ("not
// created" for a new name, "received part of the output" for a device, pipe or stdout, "received
// nothing" there when the command `spools` what goes to them: DirectOutput::spooled).
std::string interruptedLine(const std::string& command, const CancelOnSignals& signals,
                            const std::vector<std::string>& outputs, bool spools = false);

}  // namespace siglab::cli
