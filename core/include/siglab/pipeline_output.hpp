#pragma once
// The length and rate of a pipeline's output before it runs, each rate change followed: what a
// front-end that allocates the result itself (Python's out=) needs.
#include <cstdint>
#include <optional>

#include "siglab/pipeline.hpp"

namespace siglab {

struct PipelineOutput {
  std::uint64_t samples = 0;
  std::optional<double> sampleRate;
};

// For a signal of `context` (its length known). Throws StageError naming the stage, as
// runPipeline refuses it (a stage that cannot run, a chain that keeps less than one sample).
PipelineOutput pipelineOutput(const Pipeline& pipeline, const StageContext& context);

}  // namespace siglab
