#pragma once
// What the stage kinds share when they read their one-stage option's value and their parameters:
// today's CLI checks and messages (wholeIn, numberIn), moved here so every front-end says them.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/stage.hpp"

namespace siglab::stages {

// Median and Savitzky-Golay windows up to 2^24 samples: their work grows with W at every output.
inline constexpr std::uint64_t kMaxKindWindow = std::uint64_t{1} << 24;

// "4,0.1,0.3" -> {"4", "0.1", "0.3"}.
std::vector<std::string> valueFields(std::string_view text);

// A whole number in [low, high], or StageError naming `what` and the range.
std::uint64_t wholeIn(const std::string& text, std::uint64_t low, std::uint64_t high, const std::string& what);
// A finite number, or StageError naming `what`.
double numberIn(const std::string& text, const std::string& what);

// The parameters' values, complete (completeParameters): each of the type its ParameterInfo says.
std::int64_t wholeOf(const StageParameters& values, std::string_view name);
double numberOf(const StageParameters& values, std::string_view name);
bool flagOf(const StageParameters& values, std::string_view name);
const std::string& textOf(const StageParameters& values, std::string_view name);

// A parameter described; range, unit and choices are set on it after.
ParameterInfo describedParameter(std::string name, ParameterType type, std::string help,
                                 std::optional<std::string> defaultValue = std::nullopt, bool inValue = false);

// The boundary `mode` parameter: zero, reflect, mirror, nearest, wrap (and interp first where
// `withInterp`, Savitzky-Golay's own edges), defaulting to the first.
ParameterInfo modeParameter(bool withInterp = false);
BoundaryMode modeOf(const StageParameters& values);  // "interp" reads as Mirror (unused by interp)

// Runs `build`, turning a builder's std::invalid_argument into a StageError with the same words.
template <class Build>
auto asStageError(Build&& build) -> decltype(build()) {
  try {
    return build();
  } catch (const StageError&) {
    throw;
  } catch (const std::invalid_argument& e) {
    throw StageError(e.what());
  }
}

}  // namespace siglab::stages
