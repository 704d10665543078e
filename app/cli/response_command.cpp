#include <iostream>
#include <memory>
#include <stdexcept>

#include "commands.hpp"
#include "exit_codes.hpp"
#include "input_options.hpp"
#include "kind_options.hpp"
#include "option_checks.hpp"
#include "path_checks.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/io/table_file.hpp"
#include "siglab/taps.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::cli {
namespace {

struct ResponseOptions {
  std::size_t window = kDefaultWindow;
  std::string tapsFile;
  double gaussianSigma = 0.0;
  std::optional<double> sampleRate;
  std::size_t points = 512;
  std::string output;
  KindOptions kinds;  // --median (refused: no linear response), --savgol, --butter, --zero-phase
};

constexpr const char* kName = "siglab-cli response: ";

int writeResponse(const ResponseOptions& o, const FrequencyResponse& response, const std::string& what) {
  try {
    writeTable(o.output, Table{{"frequency", "magnitude_db", "phase_rad"},
                               {response.frequency, response.magnitudeDb(), response.phase()}});
  } catch (const InputError& e) {
    std::cerr << kName << e.what() << "\n";
    return kExitInputOutput;
  }
  std::cout << "wrote " << o.output << ": the response of " << what << " at " << o.points << " frequencies ("
            << (o.sampleRate ? "Hz" : "cycles per sample") << ")\n";
  return kExitOk;
}

// The response of the taps the filter command would use for the same options, bounded by the same
// core rules: a Gaussian's window by makeGaussianFilter's, a mean's work by the frequency grid
// (meanResponse never holds its W taps), any taps' by firResponse's.
FrequencyResponse tapsResponse(const ResponseOptions& o, bool windowGiven, std::string& what) {
  if (o.tapsFile.empty() && o.gaussianSigma <= 0.0) {
    what = std::to_string(o.window) + " taps";
    return meanResponse(o.window, o.points, o.sampleRate);
  }
  std::vector<double> taps;
  if (!o.tapsFile.empty()) {
    taps = readTaps(o.tapsFile);
  } else {
    try {
      taps = makeGaussianFilter(o.gaussianSigma, BoundaryMode::Zero, windowGiven ? o.window : 0).taps;
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("--gaussian: ") + e.what());
    }
  }
  what = std::to_string(taps.size()) + " taps";
  return firResponse(taps, o.points, o.sampleRate);
}

// The response of --savgol's taps or --butter's sections; nothing when neither was given.
std::optional<FrequencyResponse> kindResponse(const ResponseOptions& o, std::string& what) {
  const std::optional<FilterSpec> spec = kindSpec(o.kinds, std::nullopt, o.sampleRate);
  if (!spec) return std::nullopt;
  if (const std::string why = whyNoResponse(*spec); !why.empty()) {
    throw std::invalid_argument("--median: " + why + "; use --savgol, --butter or taps");
  }
  what = describeFilter(*spec);
  return filterResponse(*spec, o.points, o.sampleRate);
}

int runResponse(const ResponseOptions& o, bool windowGiven) {
  std::vector<NamedPath> inputs;
  if (!o.tapsFile.empty()) inputs.push_back({"--taps", o.tapsFile});
  if (const int code = checkPathsBeforeWork("response", {{"-o", o.output}}, inputs); code != kExitOk) return code;
  std::string what;
  std::optional<FrequencyResponse> ofKind;
  try {
    ofKind = kindResponse(o, what);
  } catch (const std::invalid_argument& e) {
    std::cerr << kName << e.what() << "\n";
    return kExitUsage;
  }
  if (ofKind) return writeResponse(o, *ofKind, what);
  if (o.window % 2 == 0) {
    std::cerr << kName << "--window must be odd, got " << o.window << "\n";
    return kExitUsage;
  }
  std::optional<FrequencyResponse> ofTaps;
  try {
    ofTaps = tapsResponse(o, windowGiven, what);
  } catch (const NotEnoughMemory& e) {
    std::cerr << kName << e.what() << "\n";
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    std::cerr << kName << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << kName << "--taps: " << e.what() << "\n";
    return kExitInputOutput;
  }
  return writeResponse(o, *ofTaps, what);
}

}  // namespace

void addResponseCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<ResponseOptions>();
  CLI::App* cmd = app.add_subcommand(
      "response", "The filter's frequency response from 0 to Nyquist (as scipy.signal.freqz) as CSV or .npy");
  cmd->add_option("-o,--output", o->output, "Result: CSV with the header frequency,magnitude_db,phase_rad, or .npy (N, 3)")
      ->required();
  CLI::Option* window = cmd->add_option("-w,--window", o->window, "Odd window length W; taps 1/W")
                             ->capture_default_str()->check(wholeNumber(1, kMaxWindow, "2^62 - 1"));
  CLI::Option* taps = cmd->add_option("--taps", o->tapsFile, "Custom taps: a file with an odd count, one a line")
                          ->excludes(window);
  CLI::Option* gaussian = cmd->add_option("--gaussian", o->gaussianSigma,
                                          "Gaussian taps with this sigma (window 2*round(4 sigma)+1 unless --window is given)")
                               ->excludes(taps)->check(finiteNumber(0.0, false, 1e17));
  addKindOptions(*cmd, o->kinds, {window, taps, gaussian});
  cmd->add_option_function<double>("--rate", [o](double hz) { o->sampleRate = hz; },
                                   "Sample rate in Hz: frequencies in Hz instead of cycles per sample")
      ->check(sampleRateValidator());
  cmd->add_option("-n,--points", o->points, "Frequencies, 1 to 16777216, from 0 up to (not including) Nyquist")
      ->capture_default_str()->check(wholeNumber(1, kMaxResponsePoints));
  cmd->callback([o, window, &exitCode] { exitCode = runResponse(*o, window->count() > 0); });
}

}  // namespace siglab::cli
