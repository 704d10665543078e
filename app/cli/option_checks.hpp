#pragma once
#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace siglab::cli {

// A whole number from `min` to `max`, digits only: "-1" is refused rather than wrapped to 2^64 - 1.
// The message names the range in words, with `maxInWords` ("2^62 - 1") in place of a long number.
CLI::Validator wholeNumber(std::uint64_t min, std::uint64_t max, const std::string& maxInWords = {});

// One of `choices`, spelled exactly: "--dtype: must be one of "f64", "f32", got "f16"".
CLI::Validator oneOf(std::vector<std::string> choices);
// The choices of `option`'s oneOf check, or empty where it has none (for the reference and completions).
std::vector<std::string> oneOfChoices(CLI::Option& option);

// Gives every unsigned option (CLI11's type UINT) of `app` and its subcommands a check that refuses
// a negative value as negative: CLI11 reads unsigned numbers with strtoull, which wraps "-3" to
// 2^64 - 3. Called once, after every command is added, so no option of any command can miss it.
void refuseNegativeUnsignedOptions(CLI::App& app);

// A finite number greater than `min` (or equal to it, with `minIncluded`) and at most `max`: NaN and
// infinities are refused (a NaN passes CLI11's PositiveNumber).
CLI::Validator finiteNumber(double min, bool minIncluded, double max);

}  // namespace siglab::cli
