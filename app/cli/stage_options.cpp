#include "stage_options.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include <iostream>

#include "exit_codes.hpp"
#include "siglab/parameter_text.hpp"
#include "option_checks.hpp"
#include "siglab/errors.hpp"

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

// A parameter written after a value (--zero-phase, --norm) that the chosen kind does not take,
// though other kinds do: a StageError naming the options it needs one of.
void checkParametersBelong(const CLI::App& command, const StageKind& kind) {
  std::map<std::string, std::vector<std::string>, std::less<>> takers;
  for (const StageKind* other : stageKinds()) {
    for (const ParameterInfo& p : other->parameters()) {
      if (!p.inValue && !findStageKind(p.name)) takers[p.name].push_back("--" + std::string(other->optionName()));
    }
  }
  for (const auto& [name, options] : takers) {
    if (!given(command, name)) continue;
    const auto parameters = kind.parameters();
    if (std::any_of(parameters.begin(), parameters.end(), [&](const ParameterInfo& p) { return p.name == name && !p.inValue; })) {
      continue;
    }
    std::string list;
    for (std::size_t i = 0; i < options.size(); ++i) list += (i == 0 ? "" : i + 1 == options.size() ? " or " : ", ") + options[i];
    throw StageError("--" + name + " requires " + list);
  }
}

}  // namespace

namespace {

// The kind a one-stage pipeline is when no kind's option was given: the mean of --window, which
// keeps the short name -w.
constexpr std::string_view kDefaultOption = "window";

// The one parameter a kind's option value holds, where it holds exactly one (--window W, --median
// W, --gaussian SIGMA, --taps FILE), else nullptr.
const ParameterInfo* soleValueParameter(const std::vector<ParameterInfo>& parameters) {
  const ParameterInfo* sole = nullptr;
  for (const ParameterInfo& p : parameters) {
    if (!p.inValue) continue;
    if (sole) return nullptr;
    sole = &p;
  }
  return sole;
}

// The range check of a value that is one number, in the project's words (a maximum past 2^53,
// 2^k - 1 in a double's rounding, said as "2^k - 1").
void checkRange(CLI::Option& option, const ParameterInfo& p) {
  if (p.type == ParameterType::Whole) {
    if (p.max >= 0x1p53) {
      const int power = static_cast<int>(std::log2(p.max));
      option.check(wholeNumber(static_cast<std::uint64_t>(p.min), (std::uint64_t{1} << power) - 1,
                               "2^" + std::to_string(power) + " - 1"));
    } else {
      option.check(wholeNumber(static_cast<std::uint64_t>(p.min), static_cast<std::uint64_t>(p.max)));
    }
  } else if (p.type == ParameterType::Number) {
    option.check(finiteNumber(p.min, false, p.max));
  }
}

std::string kindHelp(const StageKind& kind) {
  std::string help(kind.summary());
  help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
  help += "; " + std::string(kind.valueSyntax());
  std::string after;
  for (const ParameterInfo& p : kind.parameters()) {
    if (!p.inValue) after += (after.empty() ? "" : ", ") + (p.name.size() == 1 ? p.name + "=" : "--" + p.name);
  }
  return after.empty() ? help : help + "; with " + after;
}

// The parameters each kind takes after its value (--window after --gaussian), asked once: every
// command adds these options at start, and pairing the kinds asks for them K x K times.
std::map<const StageKind*, std::set<std::string, std::less<>>> parametersAfterValue() {
  std::map<const StageKind*, std::set<std::string, std::less<>>> after;
  for (const StageKind* kind : stageKinds()) {
    for (const ParameterInfo& p : kind->parameters()) {
      if (!p.inValue) after[kind].insert(p.name);
    }
  }
  return after;
}

}  // namespace

void addPipelineOptions(CLI::App& cmd, PipelineChoice& c) {
  std::vector<std::pair<const StageKind*, CLI::Option*>> kindOptions;
  std::set<std::string, std::less<>> registered;
  for (const StageKind* kind : stageKinds()) {
    const std::string name(kind->optionName());
    const std::vector<ParameterInfo> parameters = kind->parameters();
    const std::string names = name == kDefaultOption ? "-w,--" + name : "--" + name;
    CLI::Option* option = cmd.add_option(names, c.values[name], kindHelp(*kind))->type_name(std::string(kind->valueSyntax()));
    if (parameters.empty()) option->expected(0, 1);  // a kind of no parameters (--envelope) stands alone
    if (const ParameterInfo* p = soleValueParameter(parameters)) {
      checkRange(*option, *p);
      if (p->defaultValue) option->default_str(*p->defaultValue);
    }
    kindOptions.emplace_back(kind, option);
    registered.insert(name);
  }
  // The parameters written after a kind's value; one that only one kind takes needs that kind's option.
  std::map<std::string, std::vector<CLI::Option*>, std::less<>> takers;
  std::map<std::string, ParameterInfo, std::less<>> after;
  for (const auto& [kind, option] : kindOptions) {
    for (const ParameterInfo& p : kind->parameters()) {
      if (p.inValue) continue;
      takers[p.name].push_back(option);
      after.emplace(p.name, p);
    }
  }
  std::vector<CLI::Option*> oneStage;
  for (const auto& [kind, option] : kindOptions) oneStage.push_back(option);
  for (const auto& [name, p] : after) {
    if (registered.contains(name)) continue;
    // A one-letter parameter (decimate's n) is written in a chain (`decimate 4 n=8`): as --n it would
    // clash with a command's -n (response's points, added after these), which CLI11 2.4 refuses at
    // start; so does any name a command already has.
    if (name.size() == 1 || cmd.get_option_no_throw("--" + name)) continue;
    std::string help = p.help;
    help[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(help[0])));
    if (!p.choices.empty()) {
      help += " (";
      for (std::size_t i = 0; i < p.choices.size(); ++i) help += (i ? ", " : "") + p.choices[i];
      help += ")";
    }
    CLI::Option* option = p.type == ParameterType::Flag ? cmd.add_flag("--" + name)->description(help)
                                                        : cmd.add_option("--" + name, c.values[name], help);
    if (p.type != ParameterType::Flag && p.defaultValue && takers[name].size() == 1) option->default_str(*p.defaultValue);
    if (takers[name].size() == 1) option->needs(takers[name].front());
    oneStage.push_back(option);
  }
  const auto takesAfter = [after = parametersAfterValue()](const StageKind* kind, std::string_view word) {
    const auto found = after.find(kind);
    return found != after.end() && found->second.contains(word);
  };
  for (const auto& [kind, option] : kindOptions) {
    for (const auto& [other, otherOption] : kindOptions) {
      if (other != kind && !takesAfter(kind, other->optionName()) && !takesAfter(other, kind->optionName())) {
        option->excludes(otherOption);
      }
    }
  }
  addChainOptions(cmd, c);
  for (CLI::Option* option : oneStage) {
    c.chainOption->excludes(option);
    c.pipelineOption->excludes(option);
  }
}

void addChainOptions(CLI::App& cmd, PipelineChoice& c) {
  c.chainOption = cmd.add_option("--chain", c.chain,
                                 "Stages one after another, separated by ';': each its one-stage option without the "
                                 "dashes and the parameters after it, e.g. \"butter 4,0.1,0.3,bandpass zero-phase; "
                                 "median 5; detrend\"; kinds: " + stageKindNames());
  c.pipelineOption = cmd.add_option("--pipeline", c.pipelineFile, "The stages from a pipeline file (JSON, as the GUI saves it)")
                         ->excludes(c.chainOption);
}

std::vector<NamedPath> pipelineInputs(const Pipeline& pipeline) {
  std::vector<NamedPath> files;
  for (std::size_t k = 0; k < pipeline.stages.size(); ++k) {
    const Stage& stage = pipeline.stages[k];
    const std::string name = pipeline.stages.size() == 1 ? "--" + std::string(stage.kind->optionName())
                                                         : stageLabel(k + 1, *stage.kind);
    for (const ParameterInfo& p : stage.kind->parameters()) {
      const auto value = stage.values.find(p.name);
      if (p.type == ParameterType::Text && value != stage.values.end()) {
        files.push_back({name, std::get<std::string>(value->second)});
      }
    }
  }
  return files;
}

// A parameter's option given without a kind that takes it (one several kinds take, such as
// --zero-phase for --butter and --decimate, has no CLI11 `needs`): the kinds that take it, named.
bool fromOneStageOptions(const PipelineChoice& c) { return c.chainOption->count() + c.pipelineOption->count() == 0; }

Pipeline pipelineFromOptions(const CLI::App& command, const PipelineChoice& c) {
  if (c.chainOption->count() > 0) return parseChain(c.chain);
  if (c.pipelineOption->count() > 0) return loadPipeline(c.pipelineFile);
  const StageKind* chosen = givenKind(command);
  const StageKind& kind = chosen ? *chosen : *findStageKind(kDefaultOption);
  const std::string optionName(kind.optionName());
  const CLI::Option* value = command.get_option_no_throw("--" + optionName);
  StageParameters values;
  Pipeline named{{Stage{&kind, {}}}};  // for messages before the values are complete
  try {
    checkParametersBelong(command, kind);
    if (value) values = kind.parseValue(value->count() > 0 ? value->as<std::string>() : value->get_default_str());
    StageParameters fromOptions;  // replacing what the one-stage value said; given twice among themselves, refused
    for (const ParameterInfo& p : kind.parameters()) {
      if (p.inValue) continue;
      if (const CLI::Option* option = given(command, p.name)) {
        if (!chosen && p.type != ParameterType::Flag) checkChoiceBelongs(kind, p, option->as<std::string>());
        if (p.type == ParameterType::Flag) {
          fromOptions[p.name] = true;
        } else {
          putParameterText(kind.parameters(), p, option->as<std::string>(), fromOptions);  // --height 2,5: height, height-max
        }
      }
    }
    for (auto& [name, v] : fromOptions) values[name] = std::move(v);
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
  // A field of the value is written in capitals (W, ORDER, SIGMA); "Gaussian sigma ..." is a sentence.
  const bool field = !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char ch) { return std::isupper(ch); });
  bool choice = word == "takes";  // "bandpass needs two cutoffs": a word of the option's value
  for (const ParameterInfo& p : kind.parameters()) {
    for (const std::string& c : p.choices) choice = choice || (p.inValue && c == word);
  }
  return "--" + std::string(kind.optionName()) + (field || choice ? " " : ": ") + message;
}

std::string namedStageMessage(const PipelineChoice& c, const Pipeline& pipeline, const std::string& message) {
  if (fromOneStageOptions(c)) return optionMessage(pipeline, message);
  return pipeline.stages.size() == 1 ? stageLabel(1, *pipeline.stages.front().kind) + ": " + message : message;
}

int pipelineForCommand(const CLI::App& command, const PipelineChoice& c, const char* name, Pipeline& pipeline) {
  try {
    pipeline = pipelineFromOptions(command, c);
  } catch (const StageError& e) {
    std::cerr << "siglab-cli " << name << ": " << e.what() << "\n";
    return kExitUsage;
  } catch (const InputError& e) {
    std::cerr << "siglab-cli " << name << ": " << e.what() << "\n";
    return kExitInputOutput;
  }
  return kExitOk;
}

}  // namespace siglab::cli
