// What every kind's parameters share: completing them with defaults, checking their types and
// ranges, and their text in a chain.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "siglab/errors.hpp"
#include "siglab/large_page_resource.hpp"
#include "siglab/stage.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

std::string joined(const std::vector<std::string>& words) {
  std::string text;
  for (const std::string& word : words) text += (text.empty() ? "" : ", ") + word;
  return text;
}

std::string rangeText(const ParameterInfo& info) {
  const auto bound = [&](double v) {
    return info.type == ParameterType::Whole ? std::to_string(static_cast<std::uint64_t>(v)) : shortNumber(v);
  };
  if (std::isinf(info.max)) return "at least " + bound(info.min);
  return "from " + bound(info.min) + " to " + bound(info.max);
}

std::string typeText(ParameterType type) {
  switch (type) {
    case ParameterType::Whole: return "a whole number";
    case ParameterType::Number: return "a number";
    case ParameterType::Flag: return "a flag (on or off)";
    case ParameterType::Choice: return "a choice";
    case ParameterType::Text: return "text";
  }
  return "a value";
}

// `value` as `info`'s type, range and choices checked; throws StageError naming the parameter.
ParameterValue checkedValue(const ParameterInfo& info, const ParameterValue& value) {
  const auto wrongType = [&] {
    return StageError(info.name + " must be " + typeText(info.type) + ", got " +
                      (std::holds_alternative<std::string>(value) ? quoteExcerpt(parameterText(value))
                                                                  : parameterText(value)));
  };
  switch (info.type) {
    case ParameterType::Whole: {
      const auto* number = std::get_if<double>(&value);
      if (number && std::trunc(*number) == *number && std::fabs(*number) < 0x1p63) {  // 5.0 from JSON or Python
        return checkedValue(info, static_cast<std::int64_t>(*number));
      }
      const auto* whole = std::get_if<std::int64_t>(&value);
      if (!whole) throw wrongType();
      // long double holds every bound exactly (kMaxWindow is 2^62 - 1).
      const auto v = static_cast<long double>(*whole);
      if (v < static_cast<long double>(info.min) || v > static_cast<long double>(info.max)) {
        throw StageError(info.name + " must be a whole number " + rangeText(info) + ", got " + std::to_string(*whole));
      }
      return value;
    }
    case ParameterType::Number: {
      double v = 0.0;
      if (const auto* whole = std::get_if<std::int64_t>(&value)) {
        v = static_cast<double>(*whole);
      } else if (const auto* number = std::get_if<double>(&value)) {
        v = *number;
      } else {
        throw wrongType();
      }
      if (!std::isfinite(v) || v < info.min || v > info.max) {
        throw StageError(info.name + " must be a finite number " + rangeText(info) + ", got " + shortNumber(v));
      }
      return v;
    }
    case ParameterType::Flag:
      if (!std::holds_alternative<bool>(value)) throw wrongType();
      return value;
    case ParameterType::Choice: {
      const auto* text = std::get_if<std::string>(&value);
      if (!text || std::find(info.choices.begin(), info.choices.end(), *text) == info.choices.end()) {
        throw StageError(info.name + " must be one of " + joined(info.choices) + ", got " + quoteExcerpt(parameterText(value)));
      }
      return value;
    }
    case ParameterType::Text:
      if (!std::holds_alternative<std::string>(value)) throw wrongType();
      return value;
  }
  return value;
}

}  // namespace

std::string parameterText(const ParameterValue& value) {
  if (const auto* flag = std::get_if<bool>(&value)) return *flag ? "" : "off";
  if (const auto* whole = std::get_if<std::int64_t>(&value)) return std::to_string(*whole);
  if (const auto* number = std::get_if<double>(&value)) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof(buffer), *number).ptr;
    return std::string(buffer, end);
  }
  return std::get<std::string>(value);
}

ParameterValue parameterFromText(const ParameterInfo& info, std::string_view text) {
  const auto notRead = [&](const std::string& what) {
    return StageError(info.name + " must be " + what + ", got " + quoteExcerpt(text));
  };
  switch (info.type) {
    case ParameterType::Whole: {
      std::int64_t v = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (text.empty() || error != std::errc() || end != text.data() + text.size()) {
        throw notRead("a whole number " + rangeText(info));
      }
      return v;
    }
    case ParameterType::Number: {
      double v = 0.0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
      if (text.empty() || error != std::errc() || end != text.data() + text.size() || !std::isfinite(v)) {
        throw notRead("a number");
      }
      return v;
    }
    case ParameterType::Flag:
      if (text.empty() || text == "on") return true;
      if (text == "off") return false;
      throw notRead("on or off (a flag)");
    case ParameterType::Choice:
    case ParameterType::Text:
      return std::string(text);
  }
  return std::string(text);
}

StageParameters completeParameters(const StageKind& kind, StageParameters values) {
  const std::vector<ParameterInfo> infos = kind.parameters();
  std::vector<std::string> known;
  for (const ParameterInfo& info : infos) known.push_back(info.name);
  for (const auto& [name, value] : values) {
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      throw StageError("unknown parameter " + quoteExcerpt(name) + " (" + std::string(kind.name()) + " takes " + joined(known) + ")");
    }
  }
  StageParameters complete;
  for (const ParameterInfo& info : infos) {
    const auto given = values.find(info.name);
    if (given != values.end()) {
      complete[info.name] = checkedValue(info, given->second);
    } else if (info.defaultValue) {
      complete[info.name] = checkedValue(info, parameterFromText(info, *info.defaultValue));
    } else if (info.type == ParameterType::Flag) {
      complete[info.name] = false;
    } else if (info.optional) {
      continue;  // SciPy's None
    } else {
      throw StageError("needs its " + info.name + " (" + std::string(kind.valueSyntax()) + ")");
    }
  }
  return complete;
}

std::string stageLabel(std::size_t number, const StageKind& kind) {
  return "stage " + std::to_string(number) + " (" + std::string(kind.name()) + ")";
}

AppliedJob BoundStage::apply(const BackendList& engines, std::span<const double> in, const StageRunOptions& options,
                             const Progress& progress) const {
  SampleVector out(ForOverwrite{}, outputSamples(in.size()), resultMemory());
  AppliedJob applied = applyInto(engines, in, out, options, progress);
  applied.result.output = std::move(out);
  return applied;
}

}  // namespace siglab
