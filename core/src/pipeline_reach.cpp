#include "siglab/pipeline_reach.hpp"

#include <optional>

namespace siglab {

PipelineReach pipelineReach(const Pipeline& pipeline, const StageContext& context) {
  PipelineReach reach;
  std::optional<std::string> wraps, endsOwn;  // the first stage that wraps at the ends, and one that does not
  for (std::size_t k = 0; k < pipeline.stages.size(); ++k) {
    const std::unique_ptr<BoundStage> stage = bindStage(pipeline.stages[k], k + 1, context);
    const std::string label = stageLabel(k + 1, *pipeline.stages[k].kind);
    const std::optional<std::size_t> before = stage->historyBefore();
    const std::optional<std::size_t> after = stage->historyAfter();
    if (!before || !after) {
      if (reach.wholeOnly.empty()) reach.wholeOnly = label + " depends on the whole signal (no finite history)";
      continue;
    }
    if (stage->rateChange() != std::pair<std::size_t, std::size_t>{1, 1}) {
      if (reach.wholeOnly.empty()) reach.wholeOnly = label + " changes the sample rate";
      continue;
    }
    reach.before += *before;
    reach.after += *after;
    const FilterSpec* spec = stage->filterSpec();
    (spec && spec->mode == BoundaryMode::Wrap ? wraps : endsOwn).emplace(label);
  }
  if (reach.wholeOnly.empty() && wraps && endsOwn) {
    reach.wholeOnly = *wraps + " wraps around the signal's ends and " + *endsOwn + " does not";
  }
  reach.circular = wraps && !endsOwn;
  return reach;
}

}  // namespace siglab
