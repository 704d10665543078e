#pragma once
#include <QPromise>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "loaded_signal.hpp"
#include "siglab/comparison.hpp"

namespace siglab::gui {

// The work the GUI hands to QtConcurrent::run. Each reports progress (0..1000) and stops at its
// next check once `cancel` is set, delivering no result; a failure is delivered as an error text.

struct LoadOutcome {
  SignalPtr signal;
  QString error;  // the reader's message: file, line, what was wrong
};
void loadSignal(QPromise<LoadOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel);

struct RunRequest {
  SignalPtr signal;
  FilterSpec spec;
  RunOptions options;
  std::vector<std::string> engines;  // names from makeAllBackends(); cpu-serial always runs
};
struct RunOutcome {
  std::shared_ptr<const Comparison> comparison;  // its reference moved into `filtered`
  SignalPtr filtered;
  QString error;
};
void runEngines(QPromise<RunOutcome>& promise, const RunRequest& request,
                std::shared_ptr<const std::atomic<bool>> cancel);

struct ExportOutcome {
  QString error;  // empty on success
};
// Runs `write`, which writes atomically.
void exportFile(QPromise<ExportOutcome>& promise, const std::function<void(const Progress&)>& write,
                std::shared_ptr<const std::atomic<bool>> cancel);

}  // namespace siglab::gui
