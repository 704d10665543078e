#pragma once
// The options `filter` and `compare` share: input, filter spec, sample type and how engines run.
// They fill a core Job; the commands only present what the pipeline returns.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "kind_options.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/job.hpp"

namespace siglab::cli {

struct JobOptions {
  Job job;
  std::string output;
  std::size_t window = kDefaultWindow;
  CLI::Option* windowOption = nullptr;
  std::string mode = "zero";
  CLI::Option* modeOption = nullptr;
  KindOptions kinds;             // --median, --savgol, --butter, --zero-phase
  std::string tapsFile;
  double gaussianSigma = 0.0;
  std::string dtype = "f64";
  std::string accumulate = "f32";
  std::size_t gpuMemoryBudgetMiB = 0;
  std::string devices;              // --devices as given; empty: device 0
  std::vector<int> deviceList;      // parsed by finishJob
  bool quiet = false;            // no progress on the terminal
  bool windowAfterReading = false;  // a mean or Gaussian window too long to build before the signal's size is known

  CudaOptions cudaOptions() const;
};

// Registers INPUT, the input options, the filter options and the run options on `command`.
void addJobOptions(CLI::App& command, JobOptions& options);

// Completes options.job from the parsed options (the spec from --taps, --gaussian or --window).
// Prints the problem and returns the exit code on a usage or taps-file error; kExitOk otherwise.
int finishJob(JobOptions& options, const char* command);

// Completes how the engines run (--devices, --dtype, --gpu-memory-budget) without the filter: for
// a command whose stages come from the registry (filter). Prints the problem and returns the exit
// code on a usage error; kExitOk otherwise.
int finishRunOptions(JobOptions& options, const char* command);

// Checks, before any work, that the outputs can be written and are neither INPUT, --taps nor each
// other. Prints the problem and returns the exit code; kExitOk when they are fine.
int checkPathsBeforeWork(const JobOptions& options, const char* command, const std::vector<NamedPath>& outputs);

// Bounds the spec by the signal's `samples` (work_bounds.hpp): in zero mode the taps that never
// meet a sample are dropped (same bits), other modes refuse windows longer than the signal allows;
// a deferred mean window is built now. Returns a note when taps were dropped. Throws
// std::invalid_argument (a usage error) or NotEnoughMemory.
std::string fitSpecToSignal(JobOptions& options, std::size_t samples);

}  // namespace siglab::cli
