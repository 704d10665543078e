#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace siglab::cli {

// A whole number from `min` to `max`, digits only: "-1" is refused rather than wrapped to 2^64 - 1.
// The message names the range in words, with `maxInWords` ("2^62 - 1") in place of a long number.
CLI::Validator wholeNumber(std::uint64_t min, std::uint64_t max, const std::string& maxInWords = {});

// A finite number greater than `min` (or equal to it, with `minIncluded`) and at most `max`: NaN and
// infinities are refused (a NaN passes CLI11's PositiveNumber).
CLI::Validator finiteNumber(double min, bool minIncluded, double max);

}  // namespace siglab::cli
