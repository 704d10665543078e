// Pipeline files: {"siglab-pipeline": 1, "stages": [{"kind": "median", "window": 5, "mode": "zero"}]},
// the form the GUI saves and Python loads.
#include <cstdint>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "io/json_file.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/analysis_stage.hpp"
#include "siglab/stage_registry.hpp"

namespace siglab {
namespace {

using nlohmann::json;

constexpr int kPipelineVersion = 1;
constexpr std::string_view kVersionKey = "siglab-pipeline";
// Deeper than any pipeline: a hostile file's nesting is refused while it is parsed.
constexpr int kDeepestNesting = 8;

json toJson(const ParameterValue& value) {
  return std::visit([](const auto& v) { return json(v); }, value);
}

// A field's value as a parameter value, or StageError naming the field.
ParameterValue fromJson(const std::string& field, const json& value) {
  if (value.is_boolean()) return value.get<bool>();
  if (value.is_number_integer()) {
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
      throw StageError(field + " is too large: " + value.dump());
    }
    return value.get<std::int64_t>();
  }
  if (value.is_number_float()) return value.get<double>();
  if (value.is_string()) return value.get<std::string>();
  throw StageError(field + " must be a number, a string or true/false, not " + std::string(value.type_name()));
}

Stage stageFromJson(const json& entry, std::size_t number) {
  const std::string where = "stage " + std::to_string(number);
  if (!entry.is_object()) throw StageError(where + ": expected an object such as {\"kind\": \"median\", \"window\": 5}");
  const auto kindField = entry.find("kind");
  if (kindField == entry.end() || !kindField->is_string()) throw StageError(where + ": \"kind\" (a string) is missing");
  const StageKind* kind = findStageKind(kindField->get<std::string>());
  if (!kind) {
    throw StageError(where + ": unknown kind " + quoteExcerpt(kindField->get<std::string>()) + " (known: " + stageKindNames() + ")");
  }
  try {
    StageParameters values;
    for (const auto& [field, value] : entry.items()) {
      if (field != "kind") values[field] = fromJson(field, value);
    }
    values = completeParameters(*kind, std::move(values));
    kind->check(values);
    return Stage{kind, std::move(values)};
  } catch (const StageError& e) {
    throw StageError(stageLabel(number, *kind) + ": " + e.what());
  }
}

// Relative paths (a taps file) are the pipeline file's folder's, as a session's signal is.
void resolveTextAgainst(Pipeline& pipeline, const std::filesystem::path& folder) {
  for (Stage& stage : pipeline.stages) {
    for (const ParameterInfo& info : stage.kind->parameters()) {
      auto value = stage.values.find(info.name);
      if (info.type != ParameterType::Text || value == stage.values.end()) continue;
      const std::filesystem::path path(std::get<std::string>(value->second));
      if (path.is_relative()) value->second = (folder / path).lexically_normal().string();
    }
  }
}

}  // namespace

json pipelineToJson(const Pipeline& pipeline) {
  json stages = json::array();
  for (const Stage& stage : pipeline.stages) {
    json entry = {{"kind", std::string(stage.kind->name())}};
    for (const auto& [name, value] : stage.values) entry[name] = toJson(value);
    stages.push_back(std::move(entry));
  }
  return {{std::string(kVersionKey), kPipelineVersion}, {"stages", std::move(stages)}};
}

Pipeline pipelineFromJson(const json& j, const std::string& pathForMessages) {
  const std::string at = pathForMessages + ": ";
  if (!j.is_object() || !j.contains(kVersionKey)) {
    throw StageError(at + "not a SigLab pipeline (expected {\"siglab-pipeline\": 1, \"stages\": [...]})");
  }
  if (j[std::string(kVersionKey)] != kPipelineVersion) {
    throw StageError(at + "pipeline version " + j[std::string(kVersionKey)].dump() + " is not known (this SigLab reads " +
                     std::to_string(kPipelineVersion) + ")");
  }
  for (const auto& [field, value] : j.items()) {
    if (field != kVersionKey && field != "stages") {
      throw StageError(at + "unknown field " + quoteExcerpt(field) + " (a pipeline has \"siglab-pipeline\" and \"stages\")");
    }
  }
  const auto stages = j.find("stages");
  if (stages == j.end() || !stages->is_array() || stages->empty()) {
    throw StageError(at + "\"stages\" must be a list of one stage or more");
  }
  Pipeline pipeline;
  try {
    for (std::size_t k = 0; k < stages->size(); ++k) pipeline.stages.push_back(stageFromJson((*stages)[k], k + 1));
    checkAnalysisEndsChain(pipeline);
  } catch (const StageError& e) {
    throw StageError(at + e.what());
  }
  return pipeline;
}

Pipeline loadPipeline(const std::string& path) {
  const json j = readJsonFile(path, "pipeline", kDeepestNesting);
  Pipeline pipeline = pipelineFromJson(j, path);
  resolveTextAgainst(pipeline, std::filesystem::path(path).parent_path());
  return pipeline;
}

void savePipeline(const std::string& path, const Pipeline& pipeline) {
  writeFileAtomically(path, pipelineToJson(pipeline).dump(2) + "\n");
}

}  // namespace siglab
