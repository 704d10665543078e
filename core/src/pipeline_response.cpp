#include "siglab/pipeline_response.hpp"

namespace siglab {

FrequencyResponse pipelineResponse(const Pipeline& pipeline, std::size_t points, std::optional<double> sampleRate) {
  if (pipeline.stages.empty()) throw StageError("the pipeline has no stage");
  const bool chain = pipeline.stages.size() > 1;
  std::optional<FrequencyResponse> product;
  for (std::size_t k = 0; k < pipeline.stages.size(); ++k) {
    const Stage& stage = pipeline.stages[k];
    const StageContext context{std::nullopt, sampleRate, Accumulator::Float64, true};
    const std::unique_ptr<BoundStage> bound = chain ? bindStage(stage, k + 1, context) : stage.kind->bind(stage.values, context);
    std::optional<FrequencyResponse> response = bound->response(points);
    if (!response) {
      throw StageError((chain ? stageLabel(k + 1, *stage.kind) + ": " : std::string()) + "a " +
                       std::string(stage.kind->name()) +
                       " has no frequency response: it is not a linear, time-invariant filter");
    }
    if (!product) {
      product = std::move(*response);
      continue;
    }
    for (std::size_t i = 0; i < product->response.size(); ++i) product->response[i] *= response->response[i];
  }
  return std::move(*product);
}

}  // namespace siglab
