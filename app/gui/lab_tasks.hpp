#pragma once
#include <QPromise>
#include <QString>

#include <atomic>
#include <memory>

#include "lab_view.hpp"
#include "loaded_signal.hpp"
#include "siglab/ladder.hpp"

namespace siglab::gui {

struct LabOutcome {
  LabExperiment experiment = LabExperiment::Reduction;
  std::shared_ptr<const Ladder> ladder;
  QString error;  // set when the run failed as a whole (out of host memory)
};

// Runs one ladder for QtConcurrent::run. The ladder runs as one call: a cancel is honoured
// before it starts, not during it.
void runLab(QPromise<LabOutcome>& promise, SignalPtr signal, const LabRequest& request,
            std::shared_ptr<const std::atomic<bool>> cancel);

}  // namespace siglab::gui
