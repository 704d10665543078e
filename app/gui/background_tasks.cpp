#include "background_tasks.hpp"

#include <algorithm>
#include <exception>
#include <new>
#include <stdexcept>
#include <string>

#include "all_backends.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/cancel_waits.hpp"
#include "signal_loading.hpp"
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
    Channels signal = readEveryChannel(file, options, reading);
    const Progress indexing = progressFor(promise, cancel.get(), 0.95, 1.0);
    promise.addResult(LoadOutcome{
        std::make_shared<const LoadedSignal>(file, std::move(signal.channels), indexing, signal.sampleRate,
                                             std::move(signal.names)),
        {}});
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

void readPipeline(QPromise<PipelineOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, cancel.get(), path + ": not enough memory", [&] {
    Pipeline pipeline = loadPipeline(path.toStdString());
    if (cancel->load()) throw Cancelled();
    promise.addResult(PipelineOutcome{std::move(pipeline), {}});
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

PipelineOptions pipelineOptionsOf(const JobDraft& draft) {
  PipelineOptions options;
  options.engines = {draft.job.engines};
  options.sampleType = draft.job.sampleType;
  options.accumulator = draft.context.accumulator;
  options.run = draft.job.run;
  return options;
}

std::string verificationFailure(const PipelineReport& report) {
  const StageReport* failed = report.firstFailure();
  if (!failed) return {};
  const Verification& v = failed->verification;
  return failed->description + ": " + failed->engine + "'s result failed verification: " + std::to_string(v.mismatches) +
         " of " + std::to_string(v.checked) + " outputs checked differ, first at index " + std::to_string(v.firstMismatch);
}

void applyStage(QPromise<ApplyOutcome>& promise, const RunRequest& request,
                std::shared_ptr<const std::atomic<bool>> cancel) {
  deliver(promise, cancel.get(), "not enough memory to filter this signal", [&] {
    // The engine reports from inside its run and looks at Cancel every few milliseconds.
    PipelineObserver observer;
    observer.cancel = cancel.get();
    observer.progressFor = [&](const std::string&) { return progressFor(promise, cancel.get(), 0.0, 0.9); };
    const std::unique_ptr<BoundStage> bound = request.job.bind();  // the spectrum's filter
    observer.phase("binding").throwIfCancelled();
    const SignalPtr& input = request.signal;
    ChannelSource source{input->channelSamples(), request.job.context.sampleRate, input->source()};
    const PipelineOptions options = pipelineOptionsOf(request.job);  // in memory into memory: core runs it in memory
    PipelineReport report = runPipeline(Pipeline{{request.job.stage}}, source, MemorySink{}, *request.engines, options,
                                        observer);
    if (!report.passed()) throw std::runtime_error(verificationFailure(report));
    auto stage = std::make_shared<const StageReport>(report.channels.front().stages.front());
    const Progress indexing = progressFor(promise, cancel.get(), 0.9, 1.0);
    auto filtered = std::make_shared<const LoadedSignal>("filtered (" + stage->engine + ")", std::move(report.output),
                                                         indexing, report.sampleRate ? report.sampleRate : input->sampleRate());
    const QString engine = QString::fromStdString(stage->engine);
    promise.addResult(ApplyOutcome{std::move(stage), std::move(filtered), {},
                                   bound->filterSpec() ? *bound->filterSpec() : FilterSpec{}, engine});
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
