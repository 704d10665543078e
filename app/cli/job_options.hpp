#pragma once
// The options `filter` and `compare` share: input, filter spec, sample type and how engines run.
// They fill a core Job; the commands only present what the pipeline returns.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <memory>
#include <string>

#include "siglab/cuda_backends.hpp"
#include "siglab/job.hpp"

namespace siglab::cli {

struct JobOptions {
  Job job;
  std::string output;
  std::size_t window = kDefaultWindow;
  CLI::Option* windowOption = nullptr;
  std::string mode = "zero";
  std::string tapsFile;
  double gaussianSigma = 0.0;
  std::string dtype = "f64";
  std::string accumulate = "f32";
  std::size_t gpuMemoryBudgetMiB = 0;

  CudaOptions cudaOptions() const;
};

// Registers INPUT, the input options, the filter options and the run options on `command`.
void addJobOptions(CLI::App& command, JobOptions& options);

// Completes options.job from the parsed options (the spec from --taps, --gaussian or --window).
// Prints the problem and returns the exit code on a usage or taps-file error; kExitOk otherwise.
int finishJob(JobOptions& options, const char* command);

}  // namespace siglab::cli
