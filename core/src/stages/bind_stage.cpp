#include "siglab/pipeline.hpp"

namespace siglab {

std::unique_ptr<BoundStage> bindStage(const Stage& stage, std::size_t number, const StageContext& context) {
  try {
    return stage.kind->bind(stage.values, context);
  } catch (const StageError& e) {
    throw StageError(stageLabel(number, *stage.kind) + ": " + e.what());
  }
}

}  // namespace siglab
