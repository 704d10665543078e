#pragma once
// The background work for signals larger than memory, viewed from their file's mapping (issue 13).
// Like background_tasks.hpp: progress 0..1000, no result once cancelled, an error text on failure.
#include <QPromise>
#include <QString>

#include <atomic>
#include <memory>

#include "background_tasks.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab::gui {

// Maps `path` (a text, CSV or WAV file is first parsed into a float64 cache in `cacheFolder`, or
// found there again), delivers a preview (no pyramid yet: the first, coarse plot), then builds the
// pyramid from the mapping and the statistics by streaming and delivers the indexed signal as a
// second result.
void openMappedSignal(QPromise<LoadOutcome>& promise, const QString& path, const ReadOptions& options,
                      const QString& cacheFolder, std::shared_ptr<const std::atomic<bool>> cancel);

struct StreamApplyRequest {
  SignalPtr signal;     // mapped
  ReadOptions opened;   // what it was opened with
  JobDraft job;         // job.job.engines: the one engine; its spec built by the task
  EnginesPtr engines;
  QString output;       // written atomically, in the format its extension names
  QString cacheFolder;  // for a text or WAV output, mapped back through the cache
};
// Apply on a mapped signal: streamFilter through the engine into `output`, block by block; the
// filtered signal is then viewed from that file's mapping, indexed. `applied` stays null (the
// result is not verified against an in-memory reference: it does not fit).
void streamApply(QPromise<ApplyOutcome>& promise, const StreamApplyRequest& request,
                 std::shared_ptr<const std::atomic<bool>> cancel);

// Compare on `range` of a mapped signal: the range copied into memory, then runEngines on it.
void runEnginesOnRange(QPromise<RunOutcome>& promise, const RunRequest& request, SampleRange range,
                       std::shared_ptr<const std::atomic<bool>> cancel);

}  // namespace siglab::gui
