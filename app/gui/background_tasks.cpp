#include "background_tasks.hpp"

#include <algorithm>
#include <exception>
#include <new>

#include "all_backends.hpp"
#include "reduction_inputs.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab::gui {
namespace {

template <typename T>
Progress progressFor(QPromise<T>& promise, const std::atomic<bool>* cancel, double from, double to) {
  promise.setProgressRange(0, 1000);
  Progress progress;
  progress.cancelFlag = cancel;
  progress.onProgress = [&promise, from, to](double f) {
    promise.setProgressValue(static_cast<int>(1000.0 * (from + (to - from) * f)));
  };
  return progress;
}

// Runs `work`, which adds the task's result. A cancel delivers no result; any other failure
// delivers an outcome holding its message.
template <typename Outcome, typename Work>
void deliver(QPromise<Outcome>& promise, const QString& outOfMemory, Work work) {
  const auto failure = [&promise](QString message) {
    Outcome outcome{};
    outcome.error = std::move(message);
    promise.addResult(std::move(outcome));
  };
  try {
    work();
  } catch (const Cancelled&) {
  } catch (const std::bad_alloc&) {
    failure(outOfMemory);
  } catch (const std::exception& e) {
    failure(QString::fromStdString(e.what()));
  }
}

}  // namespace

void loadSignal(QPromise<LoadOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel) {
  const std::string file = path.toStdString();
  deliver(promise, path + ": not enough memory to load this signal", [&] {
    const Progress reading = progressFor(promise, cancel.get(), 0.0, 0.95);
    Signal signal = readSignal(file, ReadOptions{}, reading);
    const Progress indexing = progressFor(promise, cancel.get(), 0.95, 1.0);
    promise.addResult(LoadOutcome{
        std::make_shared<const LoadedSignal>(file, std::move(signal.samples), indexing, signal.sampleRate), {}});
  });
}

void runEngines(QPromise<RunOutcome>& promise, const RunRequest& request,
                std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, "not enough memory to filter this signal", [&] {
    BackendList chosen;
    for (auto& backend : makeAllBackends()) {
      const auto& names = request.engines;
      if (std::find(names.begin(), names.end(), backend->name()) != names.end()) chosen.push_back(std::move(backend));
    }
    const Progress progress = progressFor(promise, cancel.get(), 0.0, 0.95);
    // Cancel takes effect between engines: runComparison calls back after each one.
    auto comparison = std::make_shared<Comparison>(runComparison(
        chosen, request.signal->samples(), request.spec, request.options, [&](std::size_t done, std::size_t count) {
          progress.throwIfCancelled();
          progress.report(static_cast<double>(done) / static_cast<double>(count));
        }));
    const Progress indexing = progressFor(promise, cancel.get(), 0.95, 1.0);
    auto filtered = std::make_shared<const LoadedSignal>(
        "filtered (cpu-serial)", std::move(comparison->reference), indexing);
    comparison->reference.clear();
    promise.addResult(RunOutcome{std::move(comparison), std::move(filtered), {}});
  });
}

void runReductions(QPromise<ReductionOutcome>& promise, SignalPtr signal, const ReductionRequest& request,
                   std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, "not enough memory for the reduction ladder", [&] {
    const Progress progress = progressFor(promise, cancel.get(), 0.0, 1.0);
    std::shared_ptr<const ReductionLadder> ladder;
    if (request.onSignal && signal) {
      progress.throwIfCancelled();
      ladder = std::make_shared<const ReductionLadder>(runReductionLadder(signal->samples(), request.repeat));
    } else {
      const std::vector<std::int32_t> ints = randomBytesAsInts(std::size_t{1} << request.log2Count, 1);
      progress.throwIfCancelled();
      ladder = std::make_shared<const ReductionLadder>(runReductionLadder(ints, request.repeat));
    }
    progress.report(1.0);
    promise.addResult(ReductionOutcome{std::move(ladder), {}});
  });
}

void exportFile(QPromise<ExportOutcome>& promise, const std::function<void(const Progress&)>& write,
                std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, "not enough memory to export", [&] {
    write(progressFor(promise, cancel.get(), 0.0, 1.0));
    promise.addResult(ExportOutcome{});
  });
}

}  // namespace siglab::gui
