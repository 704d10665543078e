#include "kind_options.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "siglab/filter_kinds.hpp"

namespace siglab::cli {
namespace {

std::vector<std::string> fields(const std::string& text) {
  std::vector<std::string> parts;
  std::stringstream stream(text);
  for (std::string part; std::getline(stream, part, ',');) parts.push_back(part);
  return parts;
}

// A whole number in [low, high], or std::invalid_argument naming `what` and the range.
std::size_t wholeIn(const std::string& text, std::size_t low, std::size_t high, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || value < low || value > high) {
    throw std::invalid_argument(what + " must be a whole number from " + std::to_string(low) + " to " +
                                std::to_string(high) + ", got \"" + text + "\"");
  }
  return static_cast<std::size_t>(value);
}

double numberIn(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) {
    throw std::invalid_argument(what + " must be a number, got \"" + text + "\"");
  }
  return value;
}

BoundaryMode boundaryOf(const std::optional<std::string>& mode, BoundaryMode fallback) {
  if (!mode) return fallback;
  if (const auto parsed = parseBoundaryMode(*mode)) return *parsed;
  throw std::invalid_argument("--mode must be one of zero, reflect, mirror, nearest, wrap (interp with --savgol), got \"" +
                              *mode + "\"");
}

constexpr std::size_t kMaxKindWindow = std::size_t{1} << 24;

FilterSpec savgolSpec(const std::string& text, const std::optional<std::string>& mode) {
  const std::vector<std::string> parts = fields(text);
  const std::string usage = "--savgol takes W,ORDER[,DERIV]";
  if (parts.size() < 2 || parts.size() > 3) throw std::invalid_argument(usage + ", got \"" + text + "\"");
  const std::size_t w = wholeIn(parts[0], 1, kMaxKindWindow, "--savgol W");
  if (w % 2 == 0) throw std::invalid_argument("--savgol W must be a positive odd number (1, 3, 5, ...), got " + parts[0]);
  const std::size_t order = wholeIn(parts[1], 0, std::min(w - 1, kMaxSavgolOrder),
                                    w - 1 <= kMaxSavgolOrder ? "--savgol ORDER (below W = " + std::to_string(w) + ")"
                                                             : std::string("--savgol ORDER"));
  const std::size_t deriv =
      parts.size() == 3 ? wholeIn(parts[2], 0, order, "--savgol DERIV (at most ORDER = " + std::to_string(order) + ")") : 0;
  const bool interp = !mode || *mode == "interp";
  try {  // the coefficient work is bounded (savgol.hpp) before any of it is done, or the signal read
    return makeSavgolFilter(w, order, deriv, interp, interp ? BoundaryMode::Mirror : boundaryOf(mode, BoundaryMode::Mirror));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--savgol: ") + e.what());
  }
}

FilterSpec butterSpec(const std::string& text, bool zeroPhase, std::optional<double> sampleRate) {
  std::vector<std::string> parts = fields(text);
  const std::string usage = "--butter takes ORDER,CUTOFF[,CUTOFF2][,lowpass|highpass|bandpass|bandstop]";
  std::optional<BandType> type;
  if (!parts.empty()) type = parseBandType(parts.back());
  if (type) parts.pop_back();
  if (parts.size() < 2 || parts.size() > 3) throw std::invalid_argument(usage + ", got \"" + text + "\"");
  ButterworthSpec design;
  design.order = static_cast<int>(wholeIn(parts[0], 1, kMaxButterworthOrder, "--butter ORDER"));
  design.cutoff = numberIn(parts[1], "--butter CUTOFF");
  design.type = type.value_or(parts.size() == 3 ? BandType::Bandpass : BandType::Lowpass);
  const bool band = design.type == BandType::Bandpass || design.type == BandType::Bandstop;
  if (band != (parts.size() == 3)) {
    throw std::invalid_argument(band ? "--butter " + std::string(toString(design.type)) + " needs two cutoffs: ORDER,LOW,HIGH"
                                     : "--butter " + std::string(toString(design.type)) + " takes one cutoff: ORDER,CUTOFF");
  }
  if (band) design.cutoff2 = numberIn(parts[2], "--butter CUTOFF2");
  design.sampleRate = sampleRate.value_or(0.0);
  try {
    return makeButterworthFilter(design, zeroPhase);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("--butter: ") + e.what() +
                                (sampleRate ? "" : " (without --rate, cutoffs are fractions of Nyquist, between 0 and 1)"));
  }
}

}  // namespace

std::string KindOptions::given() const {
  if (medianOption->count() > 0) return "--median";
  if (savgolOption->count() > 0) return "--savgol";
  return "--butter";
}

void addKindOptions(CLI::App& cmd, KindOptions& o, std::initializer_list<CLI::Option*> excluded) {
  o.medianOption = cmd.add_option("--median", o.median, "Median filter of odd window W (scipy.ndimage.median_filter; "
                                                        "every --mode, zero = constant 0)");
  o.savgolOption = cmd.add_option("--savgol", o.savgol,
                                  "Savitzky-Golay W,ORDER[,DERIV] (scipy.signal.savgol_filter); --mode interp (its "
                                  "default) or a boundary mode");
  o.butterOption = cmd.add_option("--butter", o.butter,
                                  "Butterworth ORDER,CUTOFF[,CUTOFF2][,lowpass|highpass|bandpass|bandstop] as "
                                  "second-order sections (scipy.signal.butter); cutoffs in Hz with --rate or a WAV input's own rate, else "
                                  "fractions of Nyquist");
  CLI::Option* zero = cmd.add_flag("--zero-phase", o.zeroPhase,
                                   "With --butter: forward and backward (scipy.signal.sosfiltfilt), no phase shift");
  zero->needs(o.butterOption);
  for (CLI::Option* kind : {o.medianOption, o.savgolOption, o.butterOption}) {
    for (CLI::Option* other : {o.medianOption, o.savgolOption, o.butterOption}) {
      if (other != kind) kind->excludes(other);
    }
    for (CLI::Option* option : excluded) {
      if (option) kind->excludes(option);
    }
  }
}

std::optional<FilterSpec> kindSpec(const KindOptions& o, const std::optional<std::string>& mode,
                                   std::optional<double> sampleRate) {
  if (!o.any()) {
    if (mode && *mode == "interp") throw std::invalid_argument("--mode interp is Savitzky-Golay's: use it with --savgol");
    return std::nullopt;
  }
  if (o.medianOption->count() > 0) {
    if (o.median == 0 || o.median % 2 == 0 || o.median > kMaxKindWindow) {
      throw std::invalid_argument("--median W must be a positive odd number (1, 3, 5, ...) up to " +
                                  std::to_string(kMaxKindWindow) + ", got " + std::to_string(o.median));
    }
    return makeMedianFilter(o.median, boundaryOf(mode, BoundaryMode::Zero));
  }
  if (o.savgolOption->count() > 0) return savgolSpec(o.savgol, mode);
  return butterSpec(o.butter, o.zeroPhase, sampleRate);
}

}  // namespace siglab::cli
