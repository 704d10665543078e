#pragma once
// A pipeline: an ordered list of stages, read from a chain ("butter 4,0.1,0.3,bandpass zero-phase;
// median 5; detrend"), a pipeline file (JSON, the form the GUI saves and Python loads) or built
// by a front-end, and the one function that runs it on a signal's channels.
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "siglab/stage.hpp"

namespace siglab {

/// The stages of a chain, in the order they run.
struct Pipeline {
  std::vector<Stage> stages;
};

// Reads a chain: stages separated by ';', each "KIND [VALUE] [PARAM [VALUE]]...": the kind's
// name or its one-stage option without the dashes ("mean 5", "window 5"), the value that option
// takes, then the parameters written after it by name ("zero-phase", "mode reflect",
// "mode=reflect"; a leading "--" is allowed). Throws StageError naming the stage (its number and
// kind) and the word that did not read.
Pipeline parseChain(std::string_view text);

// The chain that parseChain reads back to `pipeline`, in the kinds' names ("mean 5", not "window
// 5"), each parameter after the value written only where it is not its default.
std::string chainText(const Pipeline& pipeline);

// The stage `number` (from 1) of a chain bound to `context`: StageKind::bind, with a StageError
// named by stageLabel ("stage 2 (median): W 7 is too long for 3 samples ...").
std::unique_ptr<BoundStage> bindStage(const Stage& stage, std::size_t number, const StageContext& context);

// {"siglab-pipeline": 1, "stages": [{"kind": "median", "window": 5, "mode": "zero"}, ...]}.
nlohmann::json pipelineToJson(const Pipeline& pipeline);
// Throws StageError naming `pathForMessages`, the stage and the field.
Pipeline pipelineFromJson(const nlohmann::json& json, const std::string& pathForMessages);
Pipeline loadPipeline(const std::string& path);                        // InputError for an unreadable file
void savePipeline(const std::string& path, const Pipeline& pipeline);  // atomically

}  // namespace siglab
