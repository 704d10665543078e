#include "rate_change.hpp"

#include "pipeline_steps.hpp"
#include "siglab/work_bounds.hpp"
#include <cstdint>

namespace siglab::detail {

StageContext rateChangedContext(const BoundStage& stage, const StageContext& input, const std::string& prefix) {
  const auto [up, down] = stage.rateChange();
  StageContext output = input;
  if (input.samples) {
    const std::uint64_t n = *input.samples;
    if (n >= 1 && n * up < down) {
      throw StageError(prefix + "its rate change " + std::to_string(up) + "/" + std::to_string(down) + " leaves " +
                       shortNumber(static_cast<double>(n) * static_cast<double>(up) / static_cast<double>(down)) +
                       " of a sample from " + std::to_string(n) + (n == 1 ? " sample" : " samples") +
                       ": the signal must hold at least " + std::to_string((down + up - 1) / up) + " samples there");
    }
    output.samples = stage.outputSamples(n);
  }
  if (input.sampleRate && (up != 1 || down != 1)) {
    output.sampleRate = *input.sampleRate * static_cast<double>(up) / static_cast<double>(down);
  }
  return output;
}

double rateScale(const BoundChain& chain, std::size_t count) {
  double scale = 1.0;
  for (std::size_t k = 0; k < count; ++k) {
    const auto [up, down] = chain.stages[k]->rateChange();
    scale = scale * static_cast<double>(up) / static_cast<double>(down);
  }
  return scale;
}

}  // namespace siglab::detail
