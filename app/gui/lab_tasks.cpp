#include "lab_tasks.hpp"

#include <exception>
#include <new>
#include <stdexcept>

#include "reduction_inputs.hpp"

namespace siglab::gui {
namespace {

Ladder runRequested(const SignalPtr& signal, const LabRequest& request) {
  switch (request.experiment) {
    case LabExperiment::Reduction:
      if (request.onSignal && signal && signal->converted()) {
        throw std::runtime_error("the reduction lab runs on float64 samples in memory or mapped as they are; "
                                 "this file's samples are converted (WAV) or gathered from frames of several "
                                 "channels as they are read: save the channel as .npy or raw float64 first");
      }
      if (request.onSignal && signal) return runReductionLab(signal->samples(), request.repeat, signal->source());
      return runReductionLab(randomBytesAsInts(std::size_t{1} << request.log2Count, 1), request.repeat,
                             "random ints (rand() & 0xFF)");
    case LabExperiment::Reversal:
      return runReversalLab(std::size_t{1} << request.log2Count, request.repeat);
    case LabExperiment::Matmul:
      return runMatmulLab(request.shape, request.repeat);
  }
  return {};
}

}  // namespace

void runLab(QPromise<LabOutcome>& promise, SignalPtr signal, const LabRequest& request,
            std::shared_ptr<const std::atomic<bool>> cancel) {
  promise.setProgressRange(0, 1000);
  if (cancel && cancel->load()) return;  // cancelled before it started: no result
  LabOutcome outcome;
  outcome.experiment = request.experiment;
  try {
    outcome.ladder = std::make_shared<const Ladder>(runRequested(signal, request));
  } catch (const std::bad_alloc&) {
    outcome.error = QObject::tr("not enough memory for the ladder");
  } catch (const std::exception& e) {
    outcome.error = QString::fromStdString(e.what());
  }
  promise.setProgressValue(1000);
  promise.addResult(std::move(outcome));
}

}  // namespace siglab::gui
