#pragma once
// What `filter` says about a run, in memory or streamed: the same lines either way. A one-stage
// run keeps the lines it always had ("engine: ...", "verify: ..."); each stage of a chain says
// them after its label ("stage 2 (median): engine cpu-parallel (...)").
#include <string>

#include "siglab/pipeline_run.hpp"

namespace siglab::cli {

std::string millis(double ms);  // "1.234 ms"

// Engines passed over, the stage's description (not for a plain correlation's one stage), the
// engine and why, the norm-wise bound where it applies, and the verification, on stderr.
// `label`: empty for a one-stage run, else "stage K (kind)".
void describeStage(const StageReport& stage, const std::string& label);

// Called in a catch block: says on stderr what the error in flight means for `filter` and returns
// its exit code. `work` names what ran out of memory ("N samples"). Cancelled and anything that
// is not a std::exception are thrown on.
int reportApplyFailure(const std::string& engines, const std::string& work);

}  // namespace siglab::cli
