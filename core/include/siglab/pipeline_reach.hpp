#pragma once
// How far a pipeline's outputs reach into its input, for a front-end that runs one signal in
// overlapping blocks (Dask's map_overlap): each block extended by `before` and `after` samples of
// its neighbours and run as a signal of its own gives its own outputs exactly, as GNU Radio's
// history does for one block. A rate change (resample_poly, upfirdn, decimate with FIR taps)
// scales the outputs: a block starting at a multiple of `period` input samples gives outputs from
// its start x up / down on, each the whole signal's bits.
#include <cstddef>
#include <string>

#include "siglab/pipeline.hpp"

namespace siglab {

struct PipelineReach {
  std::size_t before = 0;  // input samples an output may read before its own place: the stages' sum
  std::size_t after = 0;
  bool circular = false;   // every stage wraps at the signal's ends: a block at an end reads across it
  // Why the pipeline runs only on the whole signal (naming the stage: no finite history, wrap
  // mixed with other ends), or empty when blocks give its bits.
  std::string wholeOnly;
  std::size_t up = 1, down = 1;  // outputs per input: up / down (reduced), every rate change's product
  std::size_t period = 1;        // input samples between the places a block may start at
};

// The reach of `pipeline` bound to `context` (the whole signal's length and rate). Throws
// StageError naming the stage that cannot run on such a signal.
PipelineReach pipelineReach(const Pipeline& pipeline, const StageContext& context);

}  // namespace siglab
