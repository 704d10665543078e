#include "terminal_progress.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <mutex>
#include "notes.hpp"

namespace siglab::cli {

struct TerminalProgress::State {
  using Clock = std::chrono::steady_clock;
  std::mutex mutex;
  bool enabled = false;
  bool lineShown = false;
  std::string label;
  Clock::time_point start;
  Clock::time_point lastDrawn;

  void draw(double fraction) {
    const std::lock_guard lock(mutex);
    const auto now = Clock::now();
    if (lineShown && now - lastDrawn < std::chrono::milliseconds(100) && fraction < 1.0) return;
    lastDrawn = now;
    const std::string line = progressLine(label, fraction, std::chrono::duration<double>(now - start).count());
    std::fprintf(stderr, "\r\033[K%s", line.c_str());
    std::fflush(stderr);
    lineShown = true;
  }
  void clear() {
    const std::lock_guard lock(mutex);
    if (!lineShown) return;
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
    lineShown = false;
  }
};

std::string progressLine(const std::string& label, double fraction, double elapsedSeconds) {
  const double clamped = std::fmin(std::fmax(fraction, 0.0), 1.0);
  std::string line = label + "  " + std::to_string(static_cast<int>(clamped * 100.0)) + "%";
  if (clamped >= 0.02 && clamped < 1.0 && elapsedSeconds >= 0.5) {
    const double left = elapsedSeconds * (1.0 - clamped) / clamped;
    char text[64];
    if (left < 60.0) {
      std::snprintf(text, sizeof text, "  about %.0f s left", std::ceil(left));
    } else {
      std::snprintf(text, sizeof text, "  about %.0f min left", std::ceil(left / 60.0));
    }
    line += text;
  }
  return line;
}

TerminalProgress::TerminalProgress(bool quiet) : state_(std::make_shared<State>()) {
  state_->enabled = !quiet && !cli::quiet() && ::isatty(STDERR_FILENO) == 1;
}

TerminalProgress::~TerminalProgress() { clear(); }

Progress TerminalProgress::stage(const std::string& label, const std::atomic<bool>* cancel) {
  Progress progress{{}, cancel};
  if (!state_->enabled) return progress;
  {
    const std::lock_guard lock(state_->mutex);
    state_->label = label;
    state_->start = State::Clock::now();
  }
  progress.onProgress = [state = state_](double fraction) { state->draw(fraction); };
  return progress;
}

void TerminalProgress::clear() { state_->clear(); }

}  // namespace siglab::cli
