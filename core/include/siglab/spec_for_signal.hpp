#pragma once
// What every front-end does to a filter once the signal's size is known (the CLI after reading,
// Python before filtering): one decision, so both run the same filter on the same signal.
#include <cstddef>
#include <cstdint>
#include <string>

#include "siglab/filter_spec.hpp"

namespace siglab {

// Bounds `spec` by a signal of `samples`: a correlation's window is checked (checkWindowFits,
// naming `option`, the window's option; for another kind, the kind's option, such as --savgol) and, in zero mode, cropped to the taps that can meet a sample (cropToSignal:
// the same bits, work bounded by the signal); a median or a Savitzky-Golay filter without interp
// edges keeps its window but is refused when the signal cannot take it, and every kind is refused
// on a signal too short for it (checkSignalLength). Returns a note when taps were dropped. Throws
// std::invalid_argument (a usage error) or NotEnoughMemory.
std::string fitSpecToSignal(FilterSpec& spec, std::size_t samples, const std::string& option);

// A mean filter of `window` taps (1/W each) for a signal of `samples`, built as fitSpecToSignal
// would leave it without ever holding W taps (meanFilterForSignal); `note` as fitSpecToSignal's.
FilterSpec meanFilterFitted(std::uint64_t window, BoundaryMode mode, std::size_t samples, const std::string& option,
                            std::string& note);

}  // namespace siglab
