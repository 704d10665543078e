#include "job_options.hpp"

#include <iostream>
#include <optional>

#include "exit_codes.hpp"
#include "option_checks.hpp"
#include "path_checks.hpp"
#include "siglab/work_bounds.hpp"
#include "input_options.hpp"
#include "siglab/io/file_probe.hpp"
#include "siglab/device_list.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/taps.hpp"

namespace siglab::cli {
namespace {

// Mean and Gaussian windows up to this many taps are built before the signal is read (so an engine
// that cannot run them says so first); longer ones wait for the signal's size, which bounds them.
constexpr std::uint64_t kLongestEagerWindow = std::uint64_t{1} << 20;

// The window --gaussian (with --window) or --window asks for; throws std::invalid_argument for a
// Gaussian past the core's bound, before anything is read.
std::uint64_t requestedWindow(const JobOptions& o) {
  if (o.gaussianSigma <= 0.0) return o.window;
  try {
    return checkedGaussianWindow(o.gaussianSigma, o.windowOption->count() > 0 ? o.window : 0);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--gaussian: ") + e.what());
  }
}

// The whole Gaussian of --gaussian (and --window); fitSpecToSignal fits a deferred one to the signal.
FilterSpec gaussianSpec(const JobOptions& o, BoundaryMode mode) {
  return makeGaussianFilter(o.gaussianSigma, mode, static_cast<std::size_t>(requestedWindow(o)));
}

// The filter the options describe: --taps FILE, --gaussian SIGMA or the mean of --window.
// Throws std::invalid_argument for a usage error, InputError for an unreadable taps file.
FilterSpec buildSpec(const JobOptions& o, BoundaryMode mode) {
  FilterSpec spec;
  if (!o.tapsFile.empty()) {
    spec = FilterSpec{readTaps(o.tapsFile), mode};
  } else if (o.windowAfterReading) {
    spec = makeMeanFilter(1, mode);  // a stand-in until fitSpecToSignal knows the signal's size
  } else if (o.gaussianSigma > 0.0) {
    spec = gaussianSpec(o, mode);
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
  options.devices = deviceList;
  return options;
}

void addJobOptions(CLI::App& cmd, JobOptions& o) {
  cmd.add_option("input", o.job.input,
                 "Signal file (- for standard input): text (one number a line, or --column of a CSV/TSV), .npy, WAV or --raw")
      ->required();
  addInputOptions(cmd, o.job.read);
  o.windowOption = cmd.add_option("-w,--window", o.window,
                                  "Odd window length W; taps 1/W. Zero mode takes any W (taps past 2N - 1 never "
                                  "meet a sample and are dropped); other modes take up to 2N - 1, or more while "
                                  "N * W <= 2^26")
                       ->capture_default_str()->check(wholeNumber(1, kMaxWindow, "2^62 - 1"));
  o.modeOption = cmd.add_option("--mode", o.mode,
                                "Boundary: zero, reflect, mirror, nearest or wrap; with --savgol also interp (its default)")
                     ->capture_default_str();
  CLI::Option* taps = cmd.add_option("--taps", o.tapsFile, "Custom taps: a file with an odd count, one a line")
                          ->excludes(o.windowOption);
  CLI::Option* gaussian = cmd.add_option("--gaussian", o.gaussianSigma,
                                         "Gaussian taps with this sigma (window 2*round(4 sigma)+1 unless --window is given)")
                              ->excludes(taps)->check(finiteNumber(0.0, false, 1e17));
  addKindOptions(cmd, o.kinds, {o.windowOption, taps, gaussian});
  cmd.add_option("--dtype", o.dtype, "Sample type the engines run in")
      ->capture_default_str()->check(oneOf({"f64", "f32"}));
  cmd.add_option("--accumulate", o.accumulate, "With --dtype f32: sum in f32 or f64")
      ->capture_default_str()->check(oneOf({"f32", "f64"}));
  cmd.add_option("--block-size", o.job.run.blockSize, "GPU threads per block")
      ->capture_default_str()->check(wholeNumber(32, 1024));
  cmd.add_option("--gpu-memory-budget", o.gpuMemoryBudgetMiB,
                 "MiB of GPU memory gpu-tuned may use (0: 90% of what is free); a signal over it goes in chunks")
      ->check(wholeNumber(0, std::uint64_t{1} << 24, "16777216 (16 TiB)"));
  cmd.add_option("--devices", o.devices,
                 "GPUs the GPU engines run on: all, or numbers such as 0,1 (one contiguous part of the signal each, "
                 "the same bits; 0,0 runs two parts on GPU 0); default 0");
  cmd.add_flag("-q,--quiet", o.quiet, "No progress on the terminal");
}

namespace {

// The rate a Butterworth's cutoffs in Hz refer to: --rate, else a WAV input's own rate, else none
// (cutoffs are then fractions of Nyquist).
std::optional<double> designRate(const JobOptions& o) {
  if (o.job.read.sampleRate || o.job.read.rawType) return o.job.read.sampleRate;
  try {
    const FileProbe probe = probeSignalFile(o.job.input);
    if (probe.format == FileFormat::wav) return probe.wavSampleRate;
  } catch (const InputError&) {
    // The reader names the problem when it opens the file.
  }
  return std::nullopt;
}

// --devices as a list of GPUs (o.deviceList); kExitUsage, said on stderr, when it names none that exist.
int parseDevices(JobOptions& o, const char* command) {
  if (o.devices.empty()) return kExitOk;
  try {
    const std::vector<DeviceInfo> probed = probeDevices();
    const int usable = probed.front().index < 0 ? 0 : static_cast<int>(probed.size());
    o.deviceList = parseDeviceList(o.devices, usable);
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli " << command << ": --devices " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

// The spec of --median, --savgol or --butter; kExitOk when none was given.
int finishKindJob(JobOptions& o, const char* command) {
  if (const int status = finishRunOptions(o, command); status != kExitOk) return status;
  try {
    const std::optional<std::string> mode = o.modeOption->count() > 0 ? std::optional<std::string>(o.mode) : std::nullopt;
    if (std::optional<FilterSpec> spec = kindSpec(o.kinds, mode, designRate(o))) o.job.spec = std::move(*spec);
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli " << command << ": " << e.what() << "\n";
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

int finishRunOptions(JobOptions& o, const char* command) {
  if (const int status = parseDevices(o, command); status != kExitOk) return status;
  o.job.sampleType = o.dtype == "f32" ? SampleType::f32 : SampleType::f64;
  o.job.run.deviceMemoryBudgetBytes = o.gpuMemoryBudgetMiB << 20;
  return kExitOk;
}

int finishJob(JobOptions& o, const char* command) {
  if (o.kinds.any() || o.mode == "interp") return finishKindJob(o, command);
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
    // A window past what is built up front waits for the signal's size (fitSpecToSignal).
    o.windowAfterReading = o.tapsFile.empty() && requestedWindow(o) > kLongestEagerWindow;
    o.job.spec = buildSpec(o, *mode);
  } catch (const NotEnoughMemory& e) {
    std::cerr << "siglab-cli " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli " << command << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli " << command << ": --taps: " << e.what() << "\n";
    return kExitInputOutput;
  }
  return finishRunOptions(o, command);
}

int checkPathsBeforeWork(const JobOptions& o, const char* command, const std::vector<NamedPath>& outputs) {
  std::vector<NamedPath> inputs = {{"INPUT", o.job.input}};
  if (!o.tapsFile.empty()) inputs.push_back({"--taps", o.tapsFile});
  return checkPathsBeforeWork(command, outputs, inputs);
}

std::string fitSpecToSignal(JobOptions& o, std::size_t samples) {
  if (o.windowAfterReading) {
    const Accumulator accumulator = o.job.spec.accumulator;
    std::string note;
    o.job.spec = o.gaussianSigma > 0.0
                     ? gaussianFilterFitted(o.gaussianSigma, o.job.spec.mode, static_cast<std::size_t>(requestedWindow(o)),
                                            samples, note)
                     : meanFilterFitted(o.window, o.job.spec.mode, samples, "--window", note);
    o.job.spec.accumulator = accumulator;
    o.windowAfterReading = false;
    return note;
  }
  const std::string option = o.kinds.any()              ? o.kinds.given()
                             : !o.tapsFile.empty()      ? "--taps window"
                             : o.gaussianSigma > 0.0    ? "--gaussian window"
                                                        : "--window";
  return siglab::fitSpecToSignal(o.job.spec, samples, option);
}

}  // namespace siglab::cli
