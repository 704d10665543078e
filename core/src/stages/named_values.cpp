#include "named_values.hpp"

#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include <cstdint>

namespace siglab {

void putParameterText(const std::vector<ParameterInfo>& infos, const ParameterInfo& info, std::string_view text,
                      StageParameters& values) {
  const auto put = [&](const ParameterInfo& to, std::string_view part) {
    if (values.count(to.name)) throw StageError(to.name + " is given twice");
    values[to.name] = parameterFromText(to, part);
  };
  const ParameterInfo* max = nullptr;
  for (const ParameterInfo& p : infos) {
    if (p.name == info.name + "-max" && p.type == ParameterType::Number && info.type == ParameterType::Number) max = &p;
  }
  const std::size_t comma = text.find(',');
  if (!max || comma == std::string_view::npos) return put(info, text);
  std::string_view low = text.substr(0, comma), high = text.substr(comma + 1);
  if (text.front() == '(' && text.back() == ')') {
    low.remove_prefix(1);
    high.remove_suffix(1);
  }
  if (high.find(',') != std::string_view::npos || (low.empty() && high.empty())) {
    throw StageError(info.name + " must be a number or an interval MIN,MAX (either may be left out), got " +
                     quoteExcerpt(text));
  }
  if (!low.empty()) put(info, low);
  if (!high.empty()) put(*max, high);
}

namespace stages {

StageParameters namedValues(const StageKind& kind, std::string_view value) {
  StageParameters values;
  const std::vector<ParameterInfo> infos = kind.parameters();
  std::size_t at = 0;
  while (at < value.size()) {
    const std::size_t end = std::min(value.find_first_of(" \t", at), value.size());
    const std::string_view word = value.substr(at, end - at);
    at = end + 1;
    if (word.empty()) continue;
    const std::size_t equals = word.find('=');
    const std::string_view name = word.substr(0, equals);
    const ParameterInfo* info = nullptr;
    for (const ParameterInfo& p : infos) info = p.name == name ? &p : info;
    if (!info) {
      std::string names;
      for (const ParameterInfo& p : infos) names += (names.empty() ? "" : ", ") + p.name;
      throw StageError(quoteExcerpt(word) + " is not NAME=VALUE for one of its parameters (" + names + ")");
    }
    if (equals == std::string_view::npos && info->type != ParameterType::Flag) {
      throw StageError(info->name + " needs a value: " + info->name + "=VALUE");
    }
    siglab::putParameterText(infos, *info, equals == std::string_view::npos ? "" : word.substr(equals + 1), values);
  }
  return values;
}

ParameterInfo segmentParameter(std::string name, std::string help, std::optional<std::string> fallback, double min) {
  ParameterInfo p = describedParameter(std::move(name), ParameterType::Whole, std::move(help), std::move(fallback));
  p.min = min;
  p.max = 1 << 24;
  p.unit = "samples";
  p.optional = !p.defaultValue;
  return p;
}

ParameterInfo choiceParameter(std::string name, std::string help, std::vector<std::string> choices) {
  ParameterInfo p = describedParameter(std::move(name), ParameterType::Choice, std::move(help), choices.front());
  p.choices = std::move(choices);
  return p;
}

std::optional<std::size_t> optionalWhole(const StageParameters& values, std::string_view name) {
  const auto found = values.find(name);
  if (found == values.end()) return std::nullopt;
  return static_cast<std::size_t>(std::get<std::int64_t>(found->second));
}

}  // namespace stages
}  // namespace siglab
