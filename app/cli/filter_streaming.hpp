#pragma once
// `filter` on signals larger than memory: the apply streamed block by block (core streamApply)
// with the in-memory path's checks, messages, cancellation and exit codes.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <memory>
#include <string>

#include "cancel_on_signals.hpp"
#include "job_options.hpp"
#include "siglab/stream_apply.hpp"

namespace siglab::cli {

struct StreamOptions {
  std::string mode = "auto";  // auto, always, never
  std::size_t blockSamples = StreamFilterOptions{}.blockSamples;
};

void addStreamOptions(CLI::App& command, StreamOptions& options);

inline constexpr int kNotStreamed = -1;

// Runs the apply streamed where planStreaming says so and returns the exit code; kNotStreamed,
// with nothing printed and `options` untouched, where the in-memory path is to run. Releases
// `computing` (the exit-at-once watcher) before the temporary output is created. Expects the
// checks runApply makes first (paths, finishJob, the engine's name).
int runStreamedApply(JobOptions& options, const StreamOptions& stream, const BackendList& engines,
                     const CancelOnSignals& signals, std::unique_ptr<ExitOnCancel>& computing);

}  // namespace siglab::cli
