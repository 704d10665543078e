#include "option_values.hpp"

#include <algorithm>

#include "all_backends.hpp"
#include "job_options.hpp"
#include "option_checks.hpp"
#include "siglab/stage_registry.hpp"

namespace siglab::cli {
namespace {

void addUnique(std::vector<std::string>& words, const std::string& word) {
  if (std::find(words.begin(), words.end(), word) == words.end()) words.push_back(word);
}

// The choices a stage option or a parameter written after one takes (--mode, --detrend, --type), from the registry.
std::vector<std::string> stageChoices(const std::string& name) {
  std::vector<std::string> choices;
  // A kind's own option (--window is the mean's W) is that kind's, whatever other kinds call a parameter.
  const StageKind* owner = findStageKind(name);
  if (owner && owner->optionName() != name) owner = nullptr;
  for (const StageKind* kind : stageKinds()) {
    if (owner && kind != owner) continue;
    const std::vector<ParameterInfo> parameters = kind->parameters();
    std::vector<const ParameterInfo*> inValue;
    for (const ParameterInfo& p : parameters) {
      if (p.inValue) inValue.push_back(&p);
      if (!owner && !p.inValue && p.name == name && p.type == ParameterType::Choice) {
        for (const std::string& choice : p.choices) addUnique(choices, choice);
      }
    }
    if (kind->optionName() == name && inValue.size() == 1 && inValue.front()->type == ParameterType::Choice) {
      for (const std::string& choice : inValue.front()->choices) addUnique(choices, choice);
    }
  }
  return choices;
}

}  // namespace

std::vector<std::string> optionNames(const CLI::Option& option) {
  std::vector<std::string> names;
  for (const std::string& s : option.get_snames()) names.push_back("-" + s);
  for (const std::string& l : option.get_lnames()) names.push_back("--" + l);
  return names;
}

OptionValues valuesOf(CLI::Option& option) {
  if (option.get_type_name().empty()) return {OptionValues::Kind::Flag, {}};
  const std::vector<const CLI::Option*> engineOptions = engineListOptions();
  if (std::find(engineOptions.begin(), engineOptions.end(), &option) != engineOptions.end()) {
    std::vector<std::string> words = {option.get_default_str().empty() ? "auto" : option.get_default_str()};
    for (const auto& engine : makeAllBackends()) addUnique(words, std::string(engine->name()));
    return {OptionValues::Kind::Engines, words};
  }
  if (std::vector<std::string> choices = oneOfChoices(option); !choices.empty()) return {OptionValues::Kind::Choices, choices};
  if (option.get_lnames() == std::vector<std::string>{"chain"}) {
    std::vector<std::string> kinds;
    for (const StageKind* kind : stageKinds()) kinds.emplace_back(kind->name());
    return {OptionValues::Kind::Choices, kinds};
  }
  for (const std::string& name : option.get_lnames()) {
    if (std::vector<std::string> choices = stageChoices(name); !choices.empty()) return {OptionValues::Kind::Choices, choices};
  }
  const std::string type = option.get_type_name();
  if (type == "TEXT" || type.find("FILE") != std::string::npos) return {OptionValues::Kind::File, {}};
  return {OptionValues::Kind::Other, {}};
}

std::vector<CLI::App*> visibleCommands(CLI::App& app) {
  std::vector<CLI::App*> commands;
  for (CLI::App* command : app.get_subcommands(std::function<bool(CLI::App*)>{})) {
    if (command->get_group().empty()) continue;  // hidden
    commands.push_back(command);
    for (CLI::App* inner : visibleCommands(*command)) commands.push_back(inner);
  }
  return commands;
}

std::string commandPath(const CLI::App& command) {
  const CLI::App* parent = command.get_parent();
  return parent && parent->get_parent() ? commandPath(*parent) + " " + command.get_name() : command.get_name();
}

}  // namespace siglab::cli
