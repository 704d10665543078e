#include "background_tasks.hpp"

#include <algorithm>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include "all_backends.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/cancel_waits.hpp"
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
// Waits on another program (a FIFO's other end) end at `cancel` too (cancel_waits.hpp).
template <typename Outcome, typename Work>
void deliver(QPromise<Outcome>& promise, const std::atomic<bool>* cancel, const QString& outOfMemory, Work work) {
  const CancelWaitsOnThread waits(cancel);
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

void loadSignal(QPromise<LoadOutcome>& promise, const QString& path, std::pmr::memory_resource* hostMemory,
                std::shared_ptr<const std::atomic<bool>> cancel) {
  const std::string file = path.toStdString();
  deliver(promise, cancel.get(), path + ": not enough memory to load this signal", [&] {
    const Progress reading = progressFor(promise, cancel.get(), 0.0, 0.95);
    ReadOptions options;
    options.hostMemory = hostMemory;
    Signal signal = readSignal(file, options, reading);
    const Progress indexing = progressFor(promise, cancel.get(), 0.95, 1.0);
    promise.addResult(LoadOutcome{
        std::make_shared<const LoadedSignal>(file, std::move(signal.samples), indexing, signal.sampleRate), {}});
  });
}

void probeFile(QPromise<ProbeOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, cancel.get(), path + ": not enough memory", [&] {
    FileProbe probe = probeSignalFile(path.toStdString());
    if (cancel->load()) throw Cancelled();  // cancelled while it looked: no dialog, no load
    promise.addResult(ProbeOutcome{std::move(probe), {}});
  });
}

void readSession(QPromise<SessionOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, cancel.get(), path + ": not enough memory", [&] {
    Session session = loadSession(path.toStdString());
    if (cancel->load()) throw Cancelled();
    promise.addResult(SessionOutcome{std::move(session), {}});
  });
}

void runEngines(QPromise<RunOutcome>& promise, const RunRequest& request,
                std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, cancel.get(), "not enough memory to filter this signal", [&] {
    // Each engine reports from inside its runs and looks at Cancel every few milliseconds.
    const Progress progress = progressFor(promise, cancel.get(), 0.0, 0.95);
    const Job job = request.job.build();
    progress.throwIfCancelled();
    auto comparison = std::make_shared<Comparison>(compareEngines(*request.engines, request.signal->samples(), job, {}, progress));
    const Progress indexing = progressFor(promise, cancel.get(), 0.95, 1.0);
    auto filtered = std::make_shared<const LoadedSignal>(
        "filtered (cpu-serial)", std::move(comparison->reference), indexing);
    comparison->reference.clear();
    promise.addResult(RunOutcome{std::move(comparison), std::move(filtered), {}});
  });
}

void applyEngine(QPromise<ApplyOutcome>& promise, const RunRequest& request,
                 std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, cancel.get(), "not enough memory to filter this signal", [&] {
    // The engine reports from inside its run and looks at Cancel every few milliseconds.
    const Progress progress = progressFor(promise, cancel.get(), 0.0, 0.9);
    Job job = request.job.build();
    progress.throwIfCancelled();
    FilterBackend* const chosen[] = {chooseApplyEngine(*request.engines, job).engine};  // its own reason, before anything runs
    job.read.hostMemory = hostMemoryFor(chosen, job.spec, job.sampleType);  // a GPU engine's result: page-locked
    auto applied = std::make_shared<AppliedJob>(applyJob(*request.engines, request.signal->samples(), job, progress));
    if (!applied->result.verification.passed()) {
      const Verification& v = applied->result.verification;
      throw std::runtime_error(applied->result.engine + "'s result failed verification: " +
                               std::to_string(v.mismatches) + " of " + std::to_string(v.checked) +
                               " outputs checked differ, first at index " + std::to_string(v.firstMismatch));
    }
    const Progress indexing = progressFor(promise, cancel.get(), 0.9, 1.0);
    auto filtered = std::make_shared<const LoadedSignal>("filtered (" + applied->result.engine + ")",
                                                         std::move(applied->result.output), indexing);
    applied->result.output.clear();
    const QString engine = QString::fromStdString(applied->result.engine);
    promise.addResult(ApplyOutcome{std::move(applied), std::move(filtered), {}, std::move(job.spec), engine});
  });
}

void exportFile(QPromise<ExportOutcome>& promise, const std::function<void(const Progress&)>& write,
                std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, cancel.get(), "not enough memory to export", [&] {
    write(progressFor(promise, cancel.get(), 0.0, 1.0));
    promise.addResult(ExportOutcome{});
  });
}

}  // namespace siglab::gui
