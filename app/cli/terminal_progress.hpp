#pragma once
#include <atomic>
#include <memory>
#include <string>

#include "siglab/progress.hpp"

namespace siglab::cli {

// "reading in.txt  42%  about 12 s left": the line a stage shows (the time left once it can be
// estimated, from the time spent so far).
std::string progressLine(const std::string& label, double fraction, double elapsedSeconds);

// Long work's progress on stderr, rewritten in place, when stderr is a terminal and not --quiet;
// nothing otherwise. Fed by siglab::Progress, from any thread; the line is cleared when done.
class TerminalProgress {
 public:
  explicit TerminalProgress(bool quiet);
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;
  ~TerminalProgress();

  // A Progress for the next stage of the work, cancelled through `cancel`.
  Progress stage(const std::string& label, const std::atomic<bool>* cancel);
  void clear();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace siglab::cli
