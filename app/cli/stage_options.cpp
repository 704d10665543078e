#include "stage_options.hpp"

#include <algorithm>
#include <cctype>

#include "siglab/stage_registry.hpp"

namespace siglab::cli {
namespace {

// The option --NAME when it was given on the command line, else nullptr.
const CLI::Option* given(const CLI::App& command, const std::string& name) {
  const CLI::Option* option = command.get_option_no_throw("--" + name);
  return option && option->count() > 0 ? option : nullptr;
}

// The kind whose one-stage option was given, or nullptr. A kind's option that is another given
// kind's parameter (--window after --gaussian) belongs to that kind.
const StageKind* givenKind(const CLI::App& command) {
  const StageKind* chosen = nullptr;
  for (const StageKind* kind : stageKinds()) {
    if (!given(command, std::string(kind->optionName()))) continue;
    bool isParameter = false;
    for (const StageKind* other : stageKinds()) {
      if (other == kind || !given(command, std::string(other->optionName()))) continue;
      for (const ParameterInfo& p : other->parameters()) isParameter = isParameter || (!p.inValue && p.name == kind->optionName());
    }
    if (!isParameter) chosen = kind;
  }
  return chosen;
}

std::string firstWord(const std::string& text) { return text.substr(0, text.find_first_of(" :,")); }

// A choice `kind` lacks but another kind's parameter of the same name has ("--mode interp" without
// --savgol): a StageError saying whose it is.
void checkChoiceBelongs(const StageKind& kind, const ParameterInfo& p, const std::string& value) {
  if (p.type != ParameterType::Choice || std::find(p.choices.begin(), p.choices.end(), value) != p.choices.end()) return;
  for (const StageKind* other : stageKinds()) {
    for (const ParameterInfo& q : other->parameters()) {
      if (other == &kind || q.name != p.name || std::find(q.choices.begin(), q.choices.end(), value) == q.choices.end()) continue;
      const std::string_view summary = other->summary();
      throw StageError("--" + p.name + " " + value + " is " + std::string(summary.substr(0, summary.find(' '))) +
                       "'s: use it with --" + std::string(other->optionName()));
    }
  }
}

}  // namespace

void addPipelineOptions(CLI::App& cmd, PipelineChoice& c, std::initializer_list<CLI::Option*> oneStage) {
  c.chainOption = cmd.add_option("--chain", c.chain,
                                 "Stages one after another, separated by ';': each its one-stage option without the "
                                 "dashes and the parameters after it, e.g. \"butter 4,0.1,0.3,bandpass zero-phase; "
                                 "median 5; detrend\"; kinds: " + stageKindNames());
  c.pipelineOption = cmd.add_option("--pipeline", c.pipelineFile, "The stages from a pipeline file (JSON, as the GUI saves it)")
                         ->excludes(c.chainOption);
  for (CLI::Option* option : oneStage) {
    if (!option) continue;
    c.chainOption->excludes(option);
    c.pipelineOption->excludes(option);
  }
}

bool fromOneStageOptions(const PipelineChoice& c) { return c.chainOption->count() + c.pipelineOption->count() == 0; }

Pipeline pipelineFromOptions(const CLI::App& command, const PipelineChoice& c) {
  if (c.chainOption->count() > 0) return parseChain(c.chain);
  if (c.pipelineOption->count() > 0) return loadPipeline(c.pipelineFile);
  const StageKind* chosen = givenKind(command);
  const StageKind& kind = chosen ? *chosen : *findStageKind("window");  // the mean of --window by default
  const std::string optionName(kind.optionName());
  const CLI::Option* value = command.get_option_no_throw("--" + optionName);
  StageParameters values;
  Pipeline named{{Stage{&kind, {}}}};  // for messages before the values are complete
  try {
    if (value) values = kind.parseValue(value->count() > 0 ? value->as<std::string>() : value->get_default_str());
    for (const ParameterInfo& p : kind.parameters()) {
      if (p.inValue) continue;
      if (const CLI::Option* option = given(command, p.name)) {
        if (!chosen && p.type != ParameterType::Flag) checkChoiceBelongs(kind, p, option->as<std::string>());
        values[p.name] = p.type == ParameterType::Flag ? ParameterValue(true) : parameterFromText(p, option->as<std::string>());
      }
    }
    values = completeParameters(kind, std::move(values));
    kind.check(values);
  } catch (const StageError& e) {
    const std::string message = e.what();
    if (message.starts_with("--")) throw;  // named already
    throw StageError(optionMessage(named, message));
  }
  return Pipeline{{Stage{&kind, std::move(values)}}};
}

std::string optionMessage(const Pipeline& pipeline, const std::string& message) {
  if (pipeline.stages.size() != 1) return message;
  const StageKind& kind = *pipeline.stages.front().kind;
  const std::string word = firstWord(message);
  for (const ParameterInfo& p : kind.parameters()) {
    if (!p.inValue && p.name == word) return "--" + message;  // a parameter's own option
  }
  const bool field = !word.empty() && std::isupper(static_cast<unsigned char>(word.front()));
  bool choice = word == "takes";  // "bandpass needs two cutoffs": a word of the option's value
  for (const ParameterInfo& p : kind.parameters()) {
    for (const std::string& c : p.choices) choice = choice || (p.inValue && c == word);
  }
  return "--" + std::string(kind.optionName()) + (field || choice ? " " : ": ") + message;
}

}  // namespace siglab::cli
