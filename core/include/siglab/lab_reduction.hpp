#pragma once
// The reduction ladder's CPU rung: the serial loop every GPU rung is a parallel version of.
#include <cstdint>
#include <span>

#include "siglab/ladder.hpp"
#include "siglab/measure.hpp"

namespace siglab {

// Rung "cpu-serial-sum": int32 summed in an int64 (exact), or float64 summed in a double in order.
// Its work is the input's bytes; result and correct are left for the caller, who holds the reference.
LadderRung sumOnCpu(std::span<const std::int32_t> values, const MeasureOptions& options, std::int64_t& sum);
LadderRung sumOnCpu(std::span<const double> values, const MeasureOptions& options, double& sum);

}  // namespace siglab
