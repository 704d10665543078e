#pragma once
// How a stage's rate change carries through a chain: the next stage is bound to the signal this
// one gives (its length and rate), and a chain that would keep less than one sample is refused
// before any work.
#include <string>

#include "siglab/stage.hpp"

namespace siglab::detail {

// The context the stage after `stage` is bound to. Throws StageError, `prefix` ("stage 2
// (decimate): ") in front, where a signal of n >= 1 samples would come out holding less than one
// (n up / down < 1: the rate change leaves nothing of it).
StageContext rateChangedContext(const BoundStage& stage, const StageContext& input, const std::string& prefix);

// The output's rate over the input's through stages [0, count) of `chain`: the product of their up / down.
double rateScale(const struct BoundChain& chain, std::size_t count);

}  // namespace siglab::detail
