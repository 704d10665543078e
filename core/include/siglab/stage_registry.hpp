#pragma once
// Every stage kind SigLab knows, in the order help and forms list them. A kind is registered by
// one line in core/src/stages/stage_list.cpp; nothing else names it.
#include <span>
#include <string_view>

#include "siglab/stage.hpp"

namespace siglab {

/// Every registered kind, in the order help and forms list them.
std::span<const StageKind* const> stageKinds();

// The kind whose name() or optionName() is `word`, or nullptr.
const StageKind* findStageKind(std::string_view word);

// Every kind's name, ", "-separated (for messages: "known: mean, gaussian, ...").
std::string stageKindNames();

}  // namespace siglab
