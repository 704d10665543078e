#pragma once
// INPUT, or a chain's output on it, in memory: for a command that analyses a signal (spectrum,
// stats --chain). Both read through core's one source reader; the chain runs through runPipeline
// (auto engines, each stage verified).
#include <string>

#include "siglab/pipeline_run.hpp"
#include "stage_options.hpp"

namespace siglab::cli {

// `input` read as filter reads it, run through the chain of `choice` when --chain or --pipeline was
// given. Prints the problem ("siglab-cli COMMAND: ...") and returns the exit code; kExitOk with
// `signal` filled otherwise. Throws Cancelled.
int signalOrChainOutput(const CLI::App& command, const PipelineChoice& choice, const char* name,
                        const FileSource& input, const Progress& progress, SourceChannels& signal);

}  // namespace siglab::cli
