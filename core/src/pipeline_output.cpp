#include "siglab/pipeline_output.hpp"

#include "rate_change.hpp"

namespace siglab {

PipelineOutput pipelineOutput(const Pipeline& pipeline, const StageContext& context) {
  StageContext at = context;
  for (std::size_t k = 0; k < pipeline.stages.size(); ++k) {
    const std::unique_ptr<BoundStage> stage = bindStage(pipeline.stages[k], k + 1, at);
    at = detail::rateChangedContext(*stage, at, stageLabel(k + 1, *pipeline.stages[k].kind) + ": ");
  }
  return {at.samples.value_or(0), at.sampleRate};
}

}  // namespace siglab
