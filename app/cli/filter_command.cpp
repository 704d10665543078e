#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "all_backends.hpp"
#include "commands.hpp"
#include "comparison_table.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/report.hpp"
#include "siglab/taps.hpp"

namespace siglab::cli {
namespace {

struct FilterOptions {
  std::string input;
  ReadOptions read;
  std::string output;
  std::size_t window = kDefaultWindow;
  bool windowGiven = false;
  std::string mode = "zero";
  std::string tapsFile;
  double gaussianSigma = 0.0;
  std::string dtype = "f64";
  std::string accumulate = "f32";
  std::string backends = "all";
  RunOptions run;
  std::string report;
  std::size_t gpuMemoryBudgetMiB = 0;
};

std::vector<std::string> splitList(const std::string& list) {
  std::vector<std::string> names;
  std::stringstream stream(list);
  for (std::string name; std::getline(stream, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

// The backends named in `list` ("all" for every one), in SigLab's order; throws CLI::ValidationError
// naming an unknown one.
BackendList chooseBackends(const std::string& list, const CudaOptions& cudaOptions) {
  BackendList all = makeAllBackends(cudaOptions);
  const std::vector<std::string> names = splitList(list);
  if (names.size() == 1 && names[0] == "all") return all;
  std::string known;
  for (const auto& b : all) known += (known.empty() ? "" : ", ") + std::string(b->name());
  for (const auto& name : names) {
    const bool exists = std::any_of(all.begin(), all.end(), [&](const auto& b) { return b->name() == name; });
    if (!exists) throw CLI::ValidationError("--backend", "unknown backend \"" + name + "\"; known: " + known + ", all");
  }
  BackendList chosen;
  for (auto& b : all) {
    if (std::find(names.begin(), names.end(), b->name()) != names.end()) chosen.push_back(std::move(b));
  }
  return chosen;
}

// The filter the options describe: --taps FILE, --gaussian SIGMA or the mean of --window.
// Throws std::invalid_argument for a usage error, InputError for an unreadable taps file.
FilterSpec buildSpec(const FilterOptions& o, BoundaryMode mode) {
  FilterSpec spec;
  if (!o.tapsFile.empty()) {
    spec = FilterSpec{readTaps(o.tapsFile), mode};
  } else if (o.gaussianSigma > 0.0) {
    spec = makeGaussianFilter(o.gaussianSigma, mode, o.windowGiven ? o.window : 0);
  } else {
    spec = makeMeanFilter(o.window, mode);
  }
  spec.accumulator = o.accumulate == "f64" ? Accumulator::Float64 : Accumulator::SampleType;
  validate(spec);
  return spec;
}

// The signal in float32, or an InputError naming the first sample float32 cannot hold.
std::vector<float> toFloat32(const std::vector<double>& signal, const std::string& path) {
  std::vector<float> narrow(signal.size());
  for (std::size_t i = 0; i < signal.size(); ++i) {
    if (std::fabs(signal[i]) > std::numeric_limits<float>::max()) {
      char value[32];
      std::snprintf(value, sizeof value, "%.6g", signal[i]);
      throw InputError(path, "sample " + std::to_string(i + 1) + " (" + value +
                                 ") is outside the float32 range; use --dtype f64");
    }
    narrow[i] = static_cast<float>(signal[i]);
  }
  return narrow;
}

int runFilter(const FilterOptions& o) {
  const auto mode = parseBoundaryMode(o.mode);
  if (!mode) {
    std::cerr << "siglab-cli filter: --mode must be one of zero, reflect, mirror, nearest, wrap\n";
    return kExitUsage;
  }
  if (o.window % 2 == 0) {
    std::cerr << "siglab-cli filter: --window must be odd, got " << o.window << "\n";
    return kExitUsage;
  }
  FilterSpec spec;
  try {
    spec = buildSpec(o, *mode);
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli filter: --taps: " << e.what() << "\n";
    return kExitInputOutput;
  }
  BackendList backends;
  try {
    CudaOptions cudaOptions;
    cudaOptions.memoryBudgetBytes = o.gpuMemoryBudgetMiB << 20;
    backends = chooseBackends(o.backends, cudaOptions);
  } catch (const CLI::ValidationError& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  }
  Signal signal;
  std::vector<float> signal32;
  try {
    signal = readSignal(o.input, o.read);
    if (o.dtype == "f32") signal32 = toFloat32(signal.samples, o.input);
  } catch (const InputError& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitInputOutput;
  }

  const Comparison comparison = o.dtype == "f32" ? runComparison(backends, signal32, spec, o.run)
                                                 : runComparison(backends, signal.samples, spec, o.run);
  printComparisonTable(std::cout, comparison, o.input);
  try {
    WriteOptions write;
    write.sampleRate = signal.sampleRate.value_or(write.sampleRate);
    writeSignal(o.output, comparison.reference, write);
    if (!o.report.empty()) {
      nlohmann::json report = comparisonToJson(comparison, o.input);
      report["sample_rate_hz"] = signal.sampleRate ? nlohmann::json(*signal.sampleRate) : nlohmann::json(nullptr);
      writeFileAtomically(o.report, report.dump(2) + "\n");
    }
  } catch (const InputError& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitInputOutput;
  }
  std::cout << "\nwrote " << o.output << " (cpu-serial result)" << (o.report.empty() ? "" : ", " + o.report) << "\n";
  return comparison.allAgree() ? kExitOk : kExitDisagreement;
}

}  // namespace

void addFilterCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<FilterOptions>();
  CLI::App* cmd = app.add_subcommand("filter", "Filter a signal on each backend, verify against cpu-serial, "
                                               "print timings and write the reference result");
  cmd->add_option("input", o->input, "Signal file: text (one number a line, or --column of a CSV/TSV), .npy, WAV or --raw")
      ->required();
  addInputOptions(*cmd, o->read);
  cmd->add_option("-o,--output", o->output, "Result file: .npy, .wav, .raw/.bin (f64), else text (one %2.16f value a line)")
      ->required();
  CLI::Option* window = cmd->add_option("-w,--window", o->window, "Odd window length W; taps 1/W")
                             ->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--mode", o->mode, "Boundary: zero, reflect, mirror, nearest or wrap")->capture_default_str();
  CLI::Option* taps = cmd->add_option("--taps", o->tapsFile, "Custom taps: a file with an odd count, one a line")
                          ->excludes(window);
  cmd->add_option("--gaussian", o->gaussianSigma,
                  "Gaussian taps with this sigma (window 2*round(4 sigma)+1 unless --window is given)")
      ->excludes(taps)->check(CLI::PositiveNumber);
  cmd->add_option("--dtype", o->dtype, "Sample type the engines run in")
      ->capture_default_str()->check(CLI::IsMember({"f64", "f32"}));
  cmd->add_option("--accumulate", o->accumulate, "With --dtype f32: sum in f32 or f64")
      ->capture_default_str()->check(CLI::IsMember({"f32", "f64"}));
  cmd->add_option("-b,--backend", o->backends,
                  "Comma-separated backends (cpu-serial, cpu-parallel, cpu-running, cpu-fft, gpu-global, gpu-constant, "
                  "gpu-shared, gpu-tuned, gpu-fft) or all")
      ->capture_default_str();
  cmd->add_option("-r,--repeat", o->run.repeat, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(CLI::Range(1, 100000));
  cmd->add_option("--block-size", o->run.blockSize, "GPU threads per block")
      ->capture_default_str()->check(CLI::Range(32, 1024));
  cmd->add_option("--report", o->report, "Also write the comparison as JSON to this file");
  cmd->add_option("--gpu-memory-budget", o->gpuMemoryBudgetMiB,
                  "MiB of GPU memory gpu-tuned may use (0: 90% of what is free); a signal over it goes in chunks");
  cmd->callback([o, window, &exitCode] {
    o->windowGiven = window->count() > 0;
    exitCode = runFilter(*o);
  });
}

}  // namespace siglab::cli
