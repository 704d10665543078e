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

// How a file Apply wrote is read back (a .raw of float64).
ReadOptions readOptionsForOutput(const QString& output);

struct StreamApplyRequest {
  SignalPtr signal;     // mapped: the chain's current result
  ReadOptions opened;   // what it was opened with
  JobDraft job;         // job.job.engines: "auto" or one engine; its stage bound by the task
  EnginesPtr engines;
  QString output;       // written atomically, in the format its extension names
  QString cacheFolder;  // for a text or WAV output, mapped back through the cache
};
// Apply on a mapped signal: the core's one pipeline run from its file into `output` (streamed where
// the stage streams, verified, committed only when it passed); the filtered signal is then viewed
// from that file's mapping, indexed.
void streamApply(QPromise<ApplyOutcome>& promise, const StreamApplyRequest& request,
                 std::shared_ptr<const std::atomic<bool>> cancel);

// Compare on `range` of a mapped signal: the range copied into memory, then runEngines on it.
void runEnginesOnRange(QPromise<RunOutcome>& promise, const RunRequest& request, SampleRange range,
                       std::shared_ptr<const std::atomic<bool>> cancel);

}  // namespace siglab::gui
