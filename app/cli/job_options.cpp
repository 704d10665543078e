#include "job_options.hpp"

#include <iostream>

#include "exit_codes.hpp"
#include "input_options.hpp"
#include "siglab/errors.hpp"
#include "siglab/taps.hpp"

namespace siglab::cli {
namespace {

// The filter the options describe: --taps FILE, --gaussian SIGMA or the mean of --window.
// Throws std::invalid_argument for a usage error, InputError for an unreadable taps file.
FilterSpec buildSpec(const JobOptions& o, BoundaryMode mode) {
  FilterSpec spec;
  if (!o.tapsFile.empty()) {
    spec = FilterSpec{readTaps(o.tapsFile), mode};
  } else if (o.gaussianSigma > 0.0) {
    spec = makeGaussianFilter(o.gaussianSigma, mode, o.windowOption->count() > 0 ? o.window : 0);
  } else {
    spec = makeMeanFilter(o.window, mode);
  }
  spec.accumulator = o.accumulate == "f64" ? Accumulator::Float64 : Accumulator::SampleType;
  validate(spec);
  return spec;
}

}  // namespace

CudaOptions JobOptions::cudaOptions() const {
  CudaOptions options;
  options.memoryBudgetBytes = gpuMemoryBudgetMiB << 20;
  return options;
}

void addJobOptions(CLI::App& cmd, JobOptions& o) {
  cmd.add_option("input", o.job.input,
                 "Signal file: text (one number a line, or --column of a CSV/TSV), .npy, WAV or --raw")
      ->required();
  addInputOptions(cmd, o.job.read);
  o.windowOption = cmd.add_option("-w,--window", o.window, "Odd window length W; taps 1/W")
                       ->capture_default_str()->check(CLI::PositiveNumber);
  cmd.add_option("--mode", o.mode, "Boundary: zero, reflect, mirror, nearest or wrap")->capture_default_str();
  CLI::Option* taps = cmd.add_option("--taps", o.tapsFile, "Custom taps: a file with an odd count, one a line")
                          ->excludes(o.windowOption);
  cmd.add_option("--gaussian", o.gaussianSigma,
                 "Gaussian taps with this sigma (window 2*round(4 sigma)+1 unless --window is given)")
      ->excludes(taps)->check(CLI::PositiveNumber);
  cmd.add_option("--dtype", o.dtype, "Sample type the engines run in")
      ->capture_default_str()->check(CLI::IsMember({"f64", "f32"}));
  cmd.add_option("--accumulate", o.accumulate, "With --dtype f32: sum in f32 or f64")
      ->capture_default_str()->check(CLI::IsMember({"f32", "f64"}));
  cmd.add_option("--block-size", o.job.run.blockSize, "GPU threads per block")
      ->capture_default_str()->check(CLI::Range(32, 1024));
  cmd.add_option("--gpu-memory-budget", o.gpuMemoryBudgetMiB,
                 "MiB of GPU memory gpu-tuned may use (0: 90% of what is free); a signal over it goes in chunks");
}

int finishJob(JobOptions& o, const char* command) {
  const auto mode = parseBoundaryMode(o.mode);
  if (!mode) {
    std::cerr << "siglab-cli " << command << ": --mode must be one of zero, reflect, mirror, nearest, wrap\n";
    return kExitUsage;
  }
  if (o.window % 2 == 0) {
    std::cerr << "siglab-cli " << command << ": --window must be odd, got " << o.window << "\n";
    return kExitUsage;
  }
  try {
    o.job.spec = buildSpec(o, *mode);
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli " << command << ": --taps: " << e.what() << "\n";
    return kExitInputOutput;
  }
  o.job.sampleType = o.dtype == "f32" ? SampleType::f32 : SampleType::f64;
  o.job.run.deviceMemoryBudgetBytes = o.gpuMemoryBudgetMiB << 20;
  return kExitOk;
}

}  // namespace siglab::cli
