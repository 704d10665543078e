#pragma once
// What a pair of cursors (A and B) on a signal reads: their distance in samples and seconds, its
// reciprocal, and (computed by the caller, off the GUI thread for long spans) the statistics of
// the samples between them. Front-ends only format it.
#include <cstddef>
#include <optional>
#include <span>
#include <string>

#include "siglab/statistics.hpp"

namespace siglab {

struct CursorDelta {
  double samples = 0;                 // B - A, in samples (signed)
  std::optional<double> seconds;      // B - A with a rate
  std::optional<double> reciprocal;   // 1 / |B - A|: in Hz with a rate, per sample without; none at 0
};

CursorDelta cursorDelta(double a, double b, std::optional<double> sampleRate);

// "1.25 ms", "-3.2 s", "440 Hz", "12.5 kHz": a value with an SI prefix, `digits` significant.
std::string withSiPrefix(double value, const std::string& unit, int digits = 6);

}  // namespace siglab

namespace siglab {

// The index of the value in sorted `keys` nearest `key` (a frequency cursor's bin); 0 when empty.
std::size_t nearestIndex(std::span<const double> keys, double key);

}  // namespace siglab
