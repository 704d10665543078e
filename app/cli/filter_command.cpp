#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <sstream>

#include <nlohmann/json.hpp>

#include "all_backends.hpp"
#include "cancel_on_signals.hpp"
#include "commands.hpp"
#include "comparison_table.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "option_checks.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/report.hpp"
#include "siglab/taps.hpp"
#include "siglab/work_bounds.hpp"
#include "terminal_progress.hpp"

namespace siglab::cli {
namespace {

struct FilterOptions {
  std::string input;
  ReadOptions read;
  std::string output;
  std::uint64_t window = kDefaultWindow;
  bool windowGiven = false;
  bool gaussianGiven = false;
  bool quiet = false;
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

// The taps that need no signal: --taps FILE, or --gaussian SIGMA (every tap is built, as SciPy
// normalises over them all, so the window must fit in memory). Empty for the mean of --window.
// Throws std::invalid_argument or NotEnoughMemory for a usage error, InputError for a taps file.
std::vector<double> tapsBeforeReading(const FilterOptions& o) {
  if (!o.tapsFile.empty()) return readTaps(o.tapsFile);
  if (!o.gaussianGiven) return {};
  const std::uint64_t window = o.windowGiven ? o.window : gaussianWindow(o.gaussianSigma);
  if (window > kMaxGaussianWindow) {
    char sigma[32];
    std::snprintf(sigma, sizeof sigma, "%g", o.gaussianSigma);
    throw std::invalid_argument("--gaussian " + std::string(sigma) + " needs " + std::to_string(window) +
                                " taps; at most " + std::to_string(kMaxGaussianWindow) +
                                " are built (sigma up to 33554432)");
  }
  char sigma[32];
  std::snprintf(sigma, sizeof sigma, "%g", o.gaussianSigma);
  requireMemory(window, 2 * sizeof(double), "the " + std::to_string(window) + " taps of --gaussian " + sigma);
  return makeGaussianFilter(o.gaussianSigma, BoundaryMode::Zero, window).taps;
}

// The filter the options describe for a signal of `samples` samples, its work bounded by N (see
// work_bounds.hpp). Throws std::invalid_argument or NotEnoughMemory for a usage error.
FilterSpec buildSpec(const FilterOptions& o, BoundaryMode mode, std::vector<double> taps, std::size_t samples) {
  FilterSpec spec;
  if (taps.empty()) {
    spec = meanFilterForSignal(o.window, mode, samples);
  } else {
    checkWindowFits(taps.size(), mode, samples, o.tapsFile.empty() ? "--gaussian window" : "--taps window");
    spec = cropToSignal(FilterSpec{std::move(taps), mode}, samples);
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
  std::vector<std::string> outputs = {o.output};
  if (!o.report.empty()) outputs.push_back(o.report);
  CancelOnSignals signals;  // first: probing the GPU alone may take a second
  auto computing = std::make_unique<ExitOnCancel>(signals, "filter", outputs);  // until the first temporary
  const auto mode = parseBoundaryMode(o.mode);
  if (!mode) {
    std::cerr << "siglab-cli filter: --mode must be one of zero, reflect, mirror, nearest, wrap\n";
    return kExitUsage;
  }
  if (o.window % 2 == 0) {
    std::cerr << "siglab-cli filter: --window must be odd, got " << o.window << "\n";
    return kExitUsage;
  }
  std::vector<double> taps;
  try {
    std::vector<NamedPath> targets = {{"-o", o.output}};
    if (!o.report.empty()) targets.push_back({"--report", o.report});
    std::vector<NamedPath> inputs = {{"INPUT", o.input}};
    if (!o.tapsFile.empty()) inputs.push_back({"--taps", o.tapsFile});
    checkOutputsBeforeWork(targets, inputs);
  } catch (const OutputConflict& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitInputOutput;
  }
  try {
    taps = tapsBeforeReading(o);
  } catch (const std::invalid_argument& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  } catch (const NotEnoughMemory& e) {
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
  // With -o - the result goes to standard output, so the table and messages go to stderr.
  std::ostream& info = o.output == "-" || o.report == "-" ? std::cerr : std::cout;
  TerminalProgress progress(o.quiet);
  Signal signal;
  std::vector<float> signal32;
  FilterSpec spec;
  try {
    signal = readSignal(o.input, o.read, progress.stage("reading " + o.input, signals.flag()));
    if (o.dtype == "f32") signal32 = toFloat32(signal.samples, o.input);
    const std::size_t requested = taps.empty() ? o.window : taps.size();
    spec = buildSpec(o, *mode, std::move(taps), signal.samples.size());
    if (spec.window() < requested) {
      info << "note: the window's " << requested << " taps were cropped to the " << spec.window()
           << " that can meet a sample (zero mode: the same result, work bounded by the signal)\n";
    }
    const Progress filtering = progress.stage("filtering", signals.flag());
    const auto eachBackend = [&](std::size_t done, std::size_t count) {
      filtering.report(static_cast<double>(done) / static_cast<double>(count));
      filtering.throwIfCancelled();
    };
    const Comparison comparison = o.dtype == "f32" ? runComparison(backends, signal32, spec, o.run, eachBackend)
                                                   : runComparison(backends, signal.samples, spec, o.run, eachBackend);
    progress.clear();
    printComparisonTable(info, comparison, o.input);
    computing.reset();  // from here on, cancelling removes the temporaries first
    WriteOptions write;
    write.sampleRate = signal.sampleRate.value_or(write.sampleRate);
    OutputSet files;  // the result and the report are renamed into place together, once both are complete
    appendSignal(files.add(o.output), comparison.reference, write, progress.stage("writing " + o.output, signals.flag()));
    if (!o.report.empty()) {
      const std::string json = comparisonToJson(comparison, o.input).dump(2) + "\n";
      const std::string_view pieces[] = {json};
      appendPieces(files.add(o.report), pieces, signals.progress());
    }
    files.commit();
    progress.clear();
    info << "\nwrote " << o.output << " (cpu-serial result)" << (o.report.empty() ? "" : ", " + o.report) << "\n";
    return comparison.allAgree() ? kExitOk : kExitDisagreement;
  } catch (const Cancelled&) {
    computing.reset();  // one line only: the watcher's, or this one
    progress.clear();
    std::cerr << interruptedLine("filter", signals, outputs) << "\n";
    return signals.exitCode();
  } catch (const std::invalid_argument& e) {
    progress.clear();
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  } catch (const NotEnoughMemory& e) {
    progress.clear();
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    progress.clear();
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitInputOutput;
  } catch (const std::bad_alloc&) {
    progress.clear();
    std::cerr << "siglab-cli filter: not enough memory for filtering " << signal.samples.size() << " samples with "
              << spec.window() << " taps\n";
    return kExitUsage;
  }
}

}  // namespace

void addFilterCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<FilterOptions>();
  CLI::App* cmd = app.add_subcommand("filter", "Filter a signal on each backend, verify against cpu-serial, "
                                               "print timings and write the reference result");
  cmd->add_option("input", o->input, "Signal file (- for standard input): text (one number a line, or --column of a CSV/TSV), .npy, WAV or --raw")
      ->required();
  addInputOptions(*cmd, o->read);
  cmd->add_option("-o,--output", o->output, "Result file (- for standard output): .npy, .wav, .raw/.bin (f64), else text (one %2.16f value a line)")
      ->required();
  CLI::Option* window =
      cmd->add_option("-w,--window", o->window,
                      "Odd window length W; taps 1/W. Zero mode takes any W (taps past 2N - 1 never meet a sample "
                      "and are dropped); other modes take up to 2N - 1, or more while N * W <= 2^26")
          ->capture_default_str()->check(wholeNumber(1, kMaxWindow, "2^62 - 1"));
  cmd->add_option("--mode", o->mode, "Boundary: zero, reflect, mirror, nearest or wrap")->capture_default_str();
  CLI::Option* taps = cmd->add_option("--taps", o->tapsFile, "Custom taps: a file with an odd count, one a line")
                          ->excludes(window);
  CLI::Option* gaussian =
      cmd->add_option("--gaussian", o->gaussianSigma,
                      "Gaussian taps with this sigma (window 2*round(4 sigma)+1 unless --window is given; "
                      "its taps must fit in memory)")
          ->excludes(taps)->check(finiteNumber(0.0, false, 1e17));
  cmd->add_option("--dtype", o->dtype, "Sample type the engines run in")
      ->capture_default_str()->check(CLI::IsMember({"f64", "f32"}));
  cmd->add_option("--accumulate", o->accumulate, "With --dtype f32: sum in f32 or f64")
      ->capture_default_str()->check(CLI::IsMember({"f32", "f64"}));
  cmd->add_option("-b,--backend", o->backends,
                  "Comma-separated backends (cpu-serial, cpu-parallel, cpu-running, gpu-global, gpu-constant, "
                  "gpu-shared, gpu-tuned) or all")
      ->capture_default_str();
  cmd->add_option("-r,--repeat", o->run.repeat, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(CLI::Range(1, 100000));
  cmd->add_option("--block-size", o->run.blockSize, "GPU threads per block")
      ->capture_default_str()->check(CLI::Range(32, 1024));
  cmd->add_option("--report", o->report, "Also write the comparison as JSON to this file (- for standard output)");
  cmd->add_option("--gpu-memory-budget", o->gpuMemoryBudgetMiB,
                  "MiB of GPU memory gpu-tuned may use (0: 90% of what is free); a signal over it goes in chunks")
      ->check(wholeNumber(0, std::uint64_t{1} << 24, "16777216 (16 TiB)"));
  cmd->add_flag("-q,--quiet", o->quiet, "No progress on the terminal");
  cmd->callback([o, window, gaussian, &exitCode] {
    o->windowGiven = window->count() > 0;
    o->gaussianGiven = gaussian->count() > 0;
    exitCode = runFilter(*o);
  });
}

}  // namespace siglab::cli
