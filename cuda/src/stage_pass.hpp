#pragma once
// A stage engine's result (cuda_stages.hpp) as the FilterPass of the engine hook that ran it:
// Unavailable becomes EngineUnavailable (auto may pass to the CPU), any other failure runtime_error.
#include <stdexcept>

#include "siglab/cuda_filters.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab {

inline FilterPass passOf(const GpuFilterResult& result) {
  if (result.status == GpuStatus::Unavailable) throw EngineUnavailable(result.reason);
  if (result.status != GpuStatus::Ok) throw std::runtime_error(result.reason);
  FilterPass pass;
  pass.phases = PhaseTimes{result.kernelMs, result.totalMs - result.kernelMs, result.totalMs};
  return pass;
}

}  // namespace siglab
