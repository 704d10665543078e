#pragma once
#include <string>
#include <string_view>

namespace siglab {

// A sample rate is a finite number of Hz greater than 0; without one, positions are sample indices.
bool isValidSampleRate(double hz);

// Throws std::invalid_argument naming `what` (such as "--rate"), the value and the allowed range
// unless `hz` is a valid sample rate.
void checkSampleRate(double hz, std::string_view what = "sample rate");

// `value` with an SI prefix and `unit`, to `digits` significant digits: 0.0015 s -> "1.5 ms",
// 44100 Hz -> "44.1 kHz". Prefixes from p to G; 0 and non-finite values have none.
std::string withSiPrefix(double value, std::string_view unit, int digits = 4);

}  // namespace siglab
