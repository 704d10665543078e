#pragma once
// A pipeline's frequency response: the product of its stages' responses (BoundStage::response),
// for `response` and any front-end that draws one.
#include <cstddef>
#include <optional>

#include "siglab/frequency_response.hpp"
#include "siglab/pipeline.hpp"

namespace siglab {

// The response of `pipeline` at `points` frequencies (Hz with `sampleRate`, else cycles per
// sample): each stage bound without a signal and its response multiplied in. Throws StageError for
// a stage that has none (a median: not linear), naming it in a chain of more than one stage.
FrequencyResponse pipelineResponse(const Pipeline& pipeline, std::size_t points, std::optional<double> sampleRate);

}  // namespace siglab
