#include "kind_values.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "siglab/filter_spec.hpp"
#include "siglab/errors.hpp"

namespace siglab::stages {

std::vector<std::string> valueFields(std::string_view text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    parts.emplace_back(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return parts;
}

std::uint64_t wholeIn(const std::string& text, std::uint64_t low, std::uint64_t high, const std::string& what) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || *end != '\0' || errno != 0 || value < low || value > high) {
    throw StageError(what + " must be a whole number from " + std::to_string(low) + " to " + std::to_string(high) +
                     ", got " + quoteExcerpt(text));
  }
  return value;
}

double numberIn(const std::string& text, const std::string& what) {
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !std::isfinite(value)) throw StageError(what + " must be a number, got " + quoteExcerpt(text));
  return value;
}

std::int64_t wholeOf(const StageParameters& values, std::string_view name) {
  return std::get<std::int64_t>(values.find(name)->second);
}

double numberOf(const StageParameters& values, std::string_view name) {
  return std::get<double>(values.find(name)->second);
}

bool flagOf(const StageParameters& values, std::string_view name) { return std::get<bool>(values.find(name)->second); }

const std::string& textOf(const StageParameters& values, std::string_view name) {
  return std::get<std::string>(values.find(name)->second);
}

ParameterInfo describedParameter(std::string name, ParameterType type, std::string help,
                                 std::optional<std::string> defaultValue, bool inValue) {
  ParameterInfo info;
  info.name = std::move(name);
  info.type = type;
  info.help = std::move(help);
  info.defaultValue = std::move(defaultValue);
  info.inValue = inValue;
  return info;
}

ParameterInfo modeParameter(bool withInterp) {
  ParameterInfo mode = describedParameter("mode", ParameterType::Choice, "Boundary: how samples past the signal's ends are read");
  if (withInterp) {
    mode.help = "interp (scipy.signal.savgol_filter's edges: a fit to the first and last W samples) or a boundary";
    mode.choices.push_back("interp");
  }
  for (const BoundaryMode m : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Mirror, BoundaryMode::Nearest,
                               BoundaryMode::Wrap}) {
    mode.choices.emplace_back(toString(m));
  }
  mode.defaultValue = mode.choices.front();
  return mode;
}

BoundaryMode modeOf(const StageParameters& values) {
  return parseBoundaryMode(textOf(values, "mode")).value_or(BoundaryMode::Mirror);
}

}  // namespace siglab::stages
