#pragma once
// The options the commands that run a pipeline share (filter, compare): the input, the sample type
// and how engines run. The stages come from stage_options.hpp; the run from core's runPipeline.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "siglab/cuda_backends.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/measure.hpp"
#include "siglab/stage.hpp"

namespace siglab::cli {

struct JobOptions {
  std::string input;                        // the signal's file
  ReadOptions read;
  std::string output;
  std::string engines = "auto";             // filter: "auto" or one name a stage; compare: a list or "all"
  SampleType sampleType = SampleType::f64;  // what the engines run in
  RunOptions run;
  MeasureOptions measure;                   // compare only
  std::string dtype = "f64";
  std::string accumulate = "f32";
  std::size_t gpuMemoryBudgetMiB = 0;
  std::string devices;              // --devices as given; empty: device 0
  std::vector<int> deviceList;      // parsed by finishRunOptions
  bool quiet = false;            // no progress on the terminal

  CudaOptions cudaOptions() const;
  Accumulator accumulator() const { return accumulate == "f64" ? Accumulator::Float64 : Accumulator::SampleType; }
};

// Registers INPUT, the input options and the run options on `command`.
void addJobOptions(CLI::App& command, JobOptions& options);

// Completes how the engines run (--devices, --dtype, --gpu-memory-budget). Prints the problem and
// returns the exit code on a usage error; kExitOk otherwise.
int finishRunOptions(JobOptions& options, const char* command);

// Checks, before any work, that the outputs can be written and are neither INPUT, a file a stage
// reads (`stageInputs`: a taps file) nor each other. Prints the problem and returns the exit code;
// kExitOk when they are fine.
int checkPathsBeforeWork(const JobOptions& options, const char* command, const std::vector<NamedPath>& outputs,
                         const std::vector<NamedPath>& stageInputs = {});

// Help that names every engine as the engines name themselves: `option`'s description becomes
// before + the names + after when help is printed (fillEngineNamesInHelp), as making the engines
// probes the GPUs, which no run that prints no help should wait for.
void describeWithEngineNames(CLI::Option* option, std::string before, std::string after);
void fillEngineNamesInHelp();
// The options that take engine names (the reference and the completions offer them there).
std::vector<const CLI::Option*> engineListOptions();

}  // namespace siglab::cli
