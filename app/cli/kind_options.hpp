#pragma once
// The filter-kind options `filter`, `compare` and `response` share: --median W, --savgol
// W,ORDER[,DERIV], --butter ORDER,CUTOFF[,CUTOFF2][,TYPE] and --zero-phase. Each turns into a core
// FilterSpec (filter_kinds.hpp); a bad value is a std::invalid_argument naming the option.
#include <CLI/CLI.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include "siglab/filter_spec.hpp"

namespace siglab::cli {

struct KindOptions {
  std::size_t median = 0;
  std::string savgol;
  std::string butter;
  bool zeroPhase = false;
  CLI::Option* medianOption = nullptr;
  CLI::Option* savgolOption = nullptr;
  CLI::Option* butterOption = nullptr;

  bool any() const { return medianOption->count() + savgolOption->count() + butterOption->count() > 0; }
  // The option given, for messages: "--median", "--savgol" or "--butter".
  std::string given() const;
};

// Registers the options on `command`, each excluding the others and `excluded` (--window, --taps,
// --gaussian); --zero-phase needs --butter.
void addKindOptions(CLI::App& command, KindOptions& options, std::initializer_list<CLI::Option*> excluded);

// The spec the given option describes, or nothing when none was given. `mode` is --mode's value
// when it was given (Savitzky-Golay takes "interp", its default, besides the boundary modes);
// `sampleRate` makes --butter's cutoffs Hz. Throws std::invalid_argument naming the option and
// the allowed range.
std::optional<FilterSpec> kindSpec(const KindOptions& options, const std::optional<std::string>& mode,
                                   std::optional<double> sampleRate);

}  // namespace siglab::cli
