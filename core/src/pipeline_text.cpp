// Chains as people write them: "butter 4,0.1,0.3,bandpass zero-phase; median 5; detrend".
#include <algorithm>

#include "siglab/pipeline.hpp"
#include "siglab/analysis_stage.hpp"
#include "siglab/errors.hpp"
#include "siglab/nearest_name.hpp"
#include "siglab/stage_registry.hpp"
#include "siglab/parameter_text.hpp"

namespace siglab {
namespace {

using Words = std::vector<std::string>;

// The chain's stages, each its words: split at blanks and ';', where a word in double quotes
// keeps them ("taps \"my taps.txt\""; \" and \\ inside).
std::vector<Words> stageWords(std::string_view text) {
  std::vector<Words> stages(1);
  std::string word;
  bool inWord = false;
  const auto endWord = [&] {
    if (inWord) stages.back().push_back(word);
    word.clear();
    inWord = false;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      inWord = true;
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\' && i + 1 < text.size()) ++i;
        word += text[i];
      }
      if (i == text.size()) throw StageError("a quote (\") is not closed: " + quoteExcerpt(text));
    } else if (c == ';') {
      endWord();
      stages.emplace_back();
    } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      endWord();
    } else {
      inWord = true;
      word += c;
    }
  }
  endWord();
  if (stages.size() > 1 && stages.back().empty()) stages.pop_back();  // "median 5;"
  return stages;
}

std::string_view withoutDashes(std::string_view word) { return word.substr(0, 2) == "--" ? word.substr(2) : word; }

// The parameter written after the value that `word` names ("mode", "--mode", "mode=reflect"), or nullptr.
const ParameterInfo* namedParameter(const std::vector<ParameterInfo>& infos, std::string_view word) {
  const std::string_view name = withoutDashes(word).substr(0, withoutDashes(word).find('='));
  for (const ParameterInfo& info : infos) {
    if (!info.inValue && info.name == name) return &info;
  }
  return nullptr;
}

std::string namesAfterValue(const std::vector<ParameterInfo>& infos) {
  std::string names;
  for (const ParameterInfo& info : infos) {
    if (!info.inValue) names += (names.empty() ? "" : ", ") + info.name;
  }
  return names.empty() ? "nothing after its value" : names;
}

Stage parseStage(const Words& words, std::size_t number) {
  const StageKind* kind = findStageKind(withoutDashes(words.front()));
  if (!kind) {
    std::vector<std::string> known;
    for (const StageKind* k : stageKinds()) known.emplace_back(k->name());
    throw StageError("stage " + std::to_string(number) + ": unknown stage " + quoteExcerpt(words.front()) +
                     didYouMean(withoutDashes(words.front()), known) + " (known: " + stageKindNames() + ")");
  }
  try {
    const std::vector<ParameterInfo> infos = kind->parameters();
    const bool takesValue = std::any_of(infos.begin(), infos.end(), [](const ParameterInfo& i) { return i.inValue; });
    StageParameters values;
    std::size_t next = 1;
    if (takesValue && next < words.size() && !namedParameter(infos, words[next])) values = kind->parseValue(words[next++]);
    for (; next < words.size(); ++next) {
      const std::string& word = words[next];
      const ParameterInfo* info = namedParameter(infos, word);
      if (!info) throw StageError(quoteExcerpt(word) + " is not one of its parameters (" + namesAfterValue(infos) + ")");
      const std::size_t equals = word.find('=');
      std::string text;
      if (equals != std::string::npos) {
        text = word.substr(equals + 1);
      } else if (info->type != ParameterType::Flag) {
        if (next + 1 == words.size()) throw StageError(info->name + " needs a value");
        text = words[++next];
      }
      putParameterText(infos, *info, text, values);
    }
    values = completeParameters(*kind, std::move(values));
    kind->check(values);
    return Stage{kind, std::move(values)};
  } catch (const StageError& e) {
    throw StageError(stageLabel(number, *kind) + ": " + e.what());
  }
}

// A word as parseChain reads it back: quoted where it holds a blank, a ';' or a quote, or is empty.
std::string quotedWhereNeeded(const std::string& word) {
  if (!word.empty() && word.find_first_of(" \t\n\r;\"\\") == std::string::npos) return word;
  std::string quoted = "\"";
  for (const char c : word) {
    if (c == '"' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace

Pipeline parseChain(std::string_view text) {
  const std::vector<Words> stages = stageWords(text);
  if (stages.size() == 1 && stages.front().empty()) throw StageError("the chain is empty: write stages such as \"median 5; mean 3\"");
  Pipeline pipeline;
  for (std::size_t k = 0; k < stages.size(); ++k) {
    if (stages[k].empty()) throw StageError("stage " + std::to_string(k + 1) + " is empty (two ';' in a row)");
    pipeline.stages.push_back(parseStage(stages[k], k + 1));
  }
  checkAnalysisEndsChain(pipeline);
  return pipeline;
}

std::string chainText(const Pipeline& pipeline) {
  std::string text;
  for (const Stage& stage : pipeline.stages) {
    if (!text.empty()) text += "; ";
    text += stage.kind->name();
    const std::vector<ParameterInfo> infos = stage.kind->parameters();
    if (std::any_of(infos.begin(), infos.end(), [](const ParameterInfo& i) { return i.inValue; })) {
      text.append(" ").append(quotedWhereNeeded(stage.kind->formatValue(stage.values)));
    }
    for (const ParameterInfo& info : infos) {
      const auto value = stage.values.find(info.name);
      if (info.inValue || value == stage.values.end()) continue;
      const bool isDefault = info.defaultValue ? parameterText(value->second) == *info.defaultValue
                                               : value->second == ParameterValue(false);
      if (isDefault) continue;
      text.append(" ").append(info.name);
      if (info.type != ParameterType::Flag) text.append(" ").append(quotedWhereNeeded(parameterText(value->second)));
    }
  }
  return text;
}

}  // namespace siglab
