#include "option_checks.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace siglab::cli {
namespace {

std::string numberText(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", v);
  return text;
}

}  // namespace

CLI::Validator wholeNumber(std::uint64_t min, std::uint64_t max, const std::string& maxInWords) {
  const std::string range = "a whole number from " + std::to_string(min) + " to " +
                            (maxInWords.empty() ? std::to_string(max) : maxInWords);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, value);
        if (text.empty() || ec != std::errc() || stop != end || value < min || value > max) {
          return "must be " + range + ", got \"" + text + "\"";
        }
        return {};
      },
      range, "WHOLE");
}

CLI::Validator oneOf(std::vector<std::string> choices) {
  std::string listed;
  for (const std::string& choice : choices) listed += (listed.empty() ? "\"" : ", \"") + choice + "\"";
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        if (std::find(choices.begin(), choices.end(), text) != choices.end()) return {};
        return "must be one of " + listed + ", got \"" + text + "\"";
      },
      "one of " + listed, "ONE_OF");
}

std::vector<std::string> oneOfChoices(CLI::Option& option) {
  std::vector<std::string> choices;
  try {
    const std::string listed = option.get_validator("ONE_OF")->get_description();  // one of "a", "b"
    for (std::size_t open = listed.find('"'); open != std::string::npos; open = listed.find('"', listed.find('"', open + 1) + 1)) {
      choices.push_back(listed.substr(open + 1, listed.find('"', open + 1) - open - 1));
    }
  } catch (const CLI::OptionNotFound&) {
    // No choices: a number, a file or free text.
  }
  return choices;
}

void refuseNegativeUnsignedOptions(CLI::App& app) {
  const CLI::Validator notNegative(
      [](std::string& text) -> std::string {
        const std::size_t sign = text.find_first_not_of(" \t");
        if (sign == std::string::npos || text[sign] != '-') return {};
        return "must not be negative (a whole number, 0 or more), got \"" + text + "\"";
      },
      "", "NOT_NEGATIVE");
  for (CLI::Option* option : app.get_options()) {
    if (option->get_type_name().starts_with("UINT")) option->check(notNegative);
  }
  for (CLI::App* command : app.get_subcommands(std::function<bool(CLI::App*)>{})) refuseNegativeUnsignedOptions(*command);
}

CLI::Validator finiteNumber(double min, bool minIncluded, double max) {
  const std::string range = "a finite number " + std::string(minIncluded ? "from " : "above ") + numberText(min) +
                            (minIncluded ? " to " : " up to ") + numberText(max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        double value = 0.0;
        const char* end = text.data() + text.size();
        const auto [stop, ec] = std::from_chars(text.data(), end, value);
        const bool above = minIncluded ? value >= min : value > min;
        if (text.empty() || ec != std::errc() || stop != end || !std::isfinite(value) || !above || value > max) {
          return "must be " + range + ", got \"" + text + "\"";
        }
        return {};
      },
      range, "NUMBER");
}

}  // namespace siglab::cli
