#pragma once
// `filter`'s pipeline: --chain "butter 4,0.1,0.3,bandpass zero-phase; median 5", --pipeline
// FILE.json, or the one-stage options (--window, --gaussian, --taps, --median, --savgol, --butter,
// with --mode, --zero-phase, ...) read through the registry's kinds: each kind's option is
// "--" + its optionName(), each parameter written after it "--" + the parameter's name.
#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

#include "siglab/io/output_checks.hpp"
#include "siglab/pipeline.hpp"

namespace siglab::cli {

struct PipelineChoice {
  std::string chain;         // --chain
  std::string pipelineFile;  // --pipeline
  CLI::Option* chainOption = nullptr;
  CLI::Option* pipelineOption = nullptr;
  std::map<std::string, std::string, std::less<>> values;  // the one-stage options' values, by option name
};

// Registers, from the registry, every kind's one-stage option (--window, --gaussian, --median, ...:
// its value checked by its parameter's range where it is one number), every parameter written
// after one (--mode, --zero-phase), --chain and --pipeline, each excluding the others as they
// exclude each other.
void addPipelineOptions(CLI::App& command, PipelineChoice& choice);

// Registers only --chain and --pipeline: for a command whose own options would collide with the
// one-stage ones (spectrum's --window, --detrend), which runs a chain's output (fromOneStageOptions
// false when one was given).
void addChainOptions(CLI::App& command, PipelineChoice& choice);

// The files the pipeline's stages read (every Text parameter: a taps file), for the checks before
// work: an output must not overwrite them.
// Each named as messages name its stage: "--taps" for one stage, "stage 2 (taps)" in a chain.
std::vector<NamedPath> pipelineInputs(const Pipeline& pipeline);

// The pipeline the parsed options describe. Throws StageError naming the option (one stage:
// "--median W must be ...") or the stage (a chain), InputError for an unreadable pipeline file.
Pipeline pipelineFromOptions(const CLI::App& command, const PipelineChoice& choice);

// A one-stage pipeline's message named by its option: "W must be ..." -> "--median W must be ...",
// "mode must be ..." -> "--mode must be ...", a builder's "interp edges ..." -> "--savgol: interp edges ...".
std::string optionMessage(const Pipeline& pipeline, const std::string& message);

// Whether the pipeline came from the one-stage options (its messages named by option).
bool fromOneStageOptions(const PipelineChoice& choice);

// A stage's message from binding or running, named as the user wrote the stage: by its option
// ("--median W must be ...") where the one-stage options made it, "stage 1 (median): ..." for a
// chain of one, as it is for a longer chain (its messages name the stage already).
std::string namedStageMessage(const PipelineChoice& choice, const Pipeline& pipeline, const std::string& message);

// The pipeline of the parsed options into `pipeline`; prints the problem ("siglab-cli COMMAND:
// ...") and returns the exit code (usage, or input/output for an unreadable pipeline file), else kExitOk.
int pipelineForCommand(const CLI::App& command, const PipelineChoice& choice, const char* name, Pipeline& pipeline);

}  // namespace siglab::cli
