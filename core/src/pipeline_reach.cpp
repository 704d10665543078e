#include "siglab/pipeline_reach.hpp"

#include <numeric>
#include <optional>

#include "rate_change.hpp"

namespace siglab {
namespace {

std::size_t ceilDiv(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

}  // namespace

PipelineReach pipelineReach(const Pipeline& pipeline, const StageContext& context) {
  PipelineReach reach;
  std::optional<std::string> wraps, endsOwn;  // the first stage that wraps at the ends, and one that does not
  // Stage k's input samples per input sample of the pipeline: up / down, the rate changes before it.
  std::size_t up = 1, down = 1;
  StageContext at = context;
  for (std::size_t k = 0; k < pipeline.stages.size(); ++k) {
    const std::unique_ptr<BoundStage> stage = bindStage(pipeline.stages[k], k + 1, at);
    const std::string label = stageLabel(k + 1, *pipeline.stages[k].kind);
    at = detail::rateChangedContext(*stage, at, label + ": ");
    const std::optional<std::size_t> before = stage->historyBefore();
    const std::optional<std::size_t> after = stage->historyAfter();
    if (!before || !after) {
      if (reach.wholeOnly.empty()) reach.wholeOnly = label + " depends on the whole signal (no finite history)";
      continue;
    }
    // The stage's history in the pipeline's input samples; a block must start where the stage's
    // own input is at a multiple of its decimation (the phase every output is computed at).
    reach.before += ceilDiv(*before * down, up);
    reach.after += ceilDiv(*after * down, up);
    const auto [givenUp, givenDown] = stage->rateChange();
    const std::size_t stageUp = givenUp / std::gcd(givenUp, givenDown), stageDown = givenDown / std::gcd(givenUp, givenDown);
    const std::size_t offset = reach.period * up / down;  // the stage's input samples in one period
    reach.period *= stageDown / std::gcd(stageDown, offset);
    up *= stageUp;
    down *= stageDown;
    const std::size_t common = std::gcd(up, down);
    up /= common;
    down /= common;
    const FilterSpec* spec = stage->filterSpec();
    (spec && spec->mode == BoundaryMode::Wrap ? wraps : endsOwn).emplace(label);
  }
  if (reach.wholeOnly.empty() && wraps && endsOwn) {
    reach.wholeOnly = *wraps + " wraps around the signal's ends and " + *endsOwn + " does not";
  }
  reach.circular = wraps && !endsOwn;
  reach.up = up;
  reach.down = down;
  return reach;
}

}  // namespace siglab
