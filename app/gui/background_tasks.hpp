#pragma once
#include <QPromise>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <memory_resource>
#include <optional>
#include <string>
#include <vector>

#include "job_draft.hpp"
#include "loaded_signal.hpp"
#include "siglab/comparison.hpp"
#include "siglab/io/file_probe.hpp"
#include "siglab/job.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/session.hpp"

namespace siglab::gui {

// The work the GUI hands to QtConcurrent::run. Each reports progress (0..1000) and stops at its
// next check once `cancel` is set, delivering no result; a failure is delivered as an error text.
// The main thread opens no file itself: a FIFO or a slow disk would freeze the window, and
// here a wait on a FIFO's other end ends at `cancel` (cancel_waits.hpp).

// A signal file's first bytes looked at (probeSignalFile): whether it needs the import dialog.
struct ProbeOutcome {
  std::optional<FileProbe> probe;
  QString error;
};
void probeFile(QPromise<ProbeOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel);

// A session file read and checked (loadSession).
struct SessionOutcome {
  std::optional<Session> session;
  QString error;
};
void readSession(QPromise<SessionOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel);

// A pipeline file read and checked (loadPipeline).
struct PipelineOutcome {
  std::optional<Pipeline> pipeline;
  QString error;
};
void readPipeline(QPromise<PipelineOutcome>& promise, const QString& path, std::shared_ptr<const std::atomic<bool>> cancel);

struct LoadOutcome {
  SignalPtr signal;
  QString error;  // the reader's message: file, line, what was wrong
};
// `hostMemory`: where the samples go (ReadOptions::hostMemory).
void loadSignal(QPromise<LoadOutcome>& promise, const QString& path, std::pmr::memory_resource* hostMemory,
                std::shared_ptr<const std::atomic<bool>> cancel);

// The session's engines, made once with their staging buffers; one task uses them at a time.
using EnginesPtr = std::shared_ptr<const BackendList>;

struct RunRequest {
  SignalPtr signal;
  JobDraft job;        // job.job.engines: "auto" or one name to apply, a comma-separated list to compare;
  EnginesPtr engines;  // its spec is built by the task, on its worker thread
};

// Compare engines: the core's comparison of job.engines (cpu-serial always runs).
struct RunOutcome {
  std::shared_ptr<const Comparison> comparison;  // its reference moved into `filtered`
  SignalPtr filtered;
  QString error;
};
void runEngines(QPromise<RunOutcome>& promise, const RunRequest& request,
                std::shared_ptr<const std::atomic<bool>> cancel);

// Apply: the form's stage as the chain's next step, run by the core's one pipeline run on
// `request.signal` (the chain's current result, every channel) with job.job.engines ("auto" or one
// engine), verified there; its result, with as many channels, becomes `filtered` (the report is
// the first channel's). Cancel stops inside the run.
struct ApplyOutcome {
  std::shared_ptr<const StageReport> report;  // the stage's run: engine, why, times, verification
  SignalPtr filtered;
  QString error;
  FilterSpec spec;  // the filter that made `filtered` (empty where the stage is none)
  QString engine;   // the engine that ran
};
void applyStage(QPromise<ApplyOutcome>& promise, const RunRequest& request,
                std::shared_ptr<const std::atomic<bool>> cancel);

// The pipeline options a draft's run takes (its one stage's engine, sample type, accumulator, run).
PipelineOptions pipelineOptionsOf(const JobDraft& draft);
// A pipeline's report that did not pass, in words: the stage, its engine and what differed.
std::string verificationFailure(const PipelineReport& report);

struct ExportOutcome {
  QString error;  // empty on success
};
// Runs `write`, which writes atomically.
void exportFile(QPromise<ExportOutcome>& promise, const std::function<void(const Progress&)>& write,
                std::shared_ptr<const std::atomic<bool>> cancel);

}  // namespace siglab::gui
