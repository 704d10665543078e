#pragma once
// `filter`'s pipeline: --chain "butter 4,0.1,0.3,bandpass zero-phase; median 5", --pipeline
// FILE.json, or the one-stage options (--window, --gaussian, --taps, --median, --savgol, --butter,
// with --mode, --zero-phase, ...) read through the registry's kinds: each kind's option is
// "--" + its optionName(), each parameter written after it "--" + the parameter's name.
#include <CLI/CLI.hpp>

#include <string>

#include "siglab/pipeline.hpp"

namespace siglab::cli {

struct PipelineChoice {
  std::string chain;         // --chain
  std::string pipelineFile;  // --pipeline
  CLI::Option* chainOption = nullptr;
  CLI::Option* pipelineOption = nullptr;
};

// Registers --chain and --pipeline on `command`, each excluding the other and `oneStage` options.
void addPipelineOptions(CLI::App& command, PipelineChoice& choice, std::initializer_list<CLI::Option*> oneStage);

// The pipeline the parsed options describe. Throws StageError naming the option (one stage:
// "--median W must be ...") or the stage (a chain), InputError for an unreadable pipeline file.
Pipeline pipelineFromOptions(const CLI::App& command, const PipelineChoice& choice);

// A one-stage pipeline's message named by its option: "W must be ..." -> "--median W must be ...",
// "mode must be ..." -> "--mode must be ...", a builder's "interp edges ..." -> "--savgol: interp edges ...".
std::string optionMessage(const Pipeline& pipeline, const std::string& message);

// Whether the pipeline came from the one-stage options (its messages named by option).
bool fromOneStageOptions(const PipelineChoice& choice);

}  // namespace siglab::cli
