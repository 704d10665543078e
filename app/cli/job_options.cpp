#include "job_options.hpp"

#include <cstdint>
#include <iostream>

#include "all_backends.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "option_checks.hpp"
#include "path_checks.hpp"
#include "siglab/device_list.hpp"
#include "siglab/job.hpp"

namespace siglab::cli {

CudaOptions JobOptions::cudaOptions() const {
  CudaOptions options;
  options.memoryBudgetBytes = gpuMemoryBudgetMiB << 20;
  options.devices = deviceList;
  return options;
}

void addJobOptions(CLI::App& cmd, JobOptions& o) {
  cmd.add_option("input", o.input,
                 "Signal file (- for standard input): text (one number a line, or --column of a CSV/TSV), .npy, audio (WAV, FLAC, Ogg, AIFF, CAF, W64, AU: by content) or --raw")
      ->required();
  addInputOptions(cmd, o.read);
  cmd.add_option("--dtype", o.dtype, "Sample type the engines run in")
      ->capture_default_str()->check(oneOf({"f64", "f32"}));
  cmd.add_option("--accumulate", o.accumulate, "With --dtype f32: sum in f32 or f64")
      ->capture_default_str()->check(oneOf({"f32", "f64"}));
  cmd.add_option("--block-size", o.run.blockSize, "GPU threads per block")
      ->capture_default_str()->check(wholeNumber(32, 1024));
  cmd.add_option("--gpu-memory-budget", o.gpuMemoryBudgetMiB,
                 "MiB of GPU memory gpu-tuned may use (0: 90% of what is free); a signal over it goes in chunks")
      ->check(wholeNumber(0, std::uint64_t{1} << 24, "16777216 (16 TiB)"));
  cmd.add_option("--devices", o.devices,
                 "GPUs the GPU engines run on: all, or numbers such as 0,1 (one contiguous part of the signal each, "
                 "the same bits; 0,0 runs two parts on GPU 0); default 0");
  cmd.add_flag("-q,--quiet", o.quiet, "No progress on the terminal");
}

int finishRunOptions(JobOptions& o, const char* command) {
  if (!o.devices.empty()) {
    try {
      const std::vector<DeviceInfo> probed = probeDevices();
      const int usable = probed.front().index < 0 ? 0 : static_cast<int>(probed.size());
      o.deviceList = parseDeviceList(o.devices, usable);
    } catch (const std::invalid_argument& e) {
      std::cerr << "siglab-cli " << command << ": --devices " << e.what() << "\n";
      return kExitUsage;
    }
  }
  o.sampleType = o.dtype == "f32" ? SampleType::f32 : SampleType::f64;
  o.run.deviceMemoryBudgetBytes = o.gpuMemoryBudgetMiB << 20;
  return kExitOk;
}

int checkPathsBeforeWork(const JobOptions& o, const char* command, const std::vector<NamedPath>& outputs,
                         const std::vector<NamedPath>& stageInputs) {
  std::vector<NamedPath> inputs = {{"INPUT", o.input}};
  inputs.insert(inputs.end(), stageInputs.begin(), stageInputs.end());
  return checkPathsBeforeWork(command, outputs, inputs);
}

namespace {

struct EngineListHelp {
  CLI::Option* option;
  std::string before;
  std::string after;
};

std::vector<EngineListHelp>& engineListHelps() {
  static std::vector<EngineListHelp> helps;
  return helps;
}

}  // namespace

void describeWithEngineNames(CLI::Option* option, std::string before, std::string after) {
  option->description(before + "every engine" + after);
  engineListHelps().push_back({option, std::move(before), std::move(after)});
}

std::vector<const CLI::Option*> engineListOptions() {
  std::vector<const CLI::Option*> options;
  for (const EngineListHelp& help : engineListHelps()) options.push_back(help.option);
  return options;
}

void fillEngineNamesInHelp() {
  const std::string names = engineNames(makeAllBackends());
  for (const EngineListHelp& help : engineListHelps()) help.option->description(help.before + names + help.after);
}

}  // namespace siglab::cli
