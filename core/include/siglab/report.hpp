#pragma once
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "siglab/comparison.hpp"

namespace siglab {

// The comparison as JSON: spec, options, one object per backend (status, timings, speedups,
// agreement). `input` names the signal's source.
nlohmann::json comparisonToJson(const Comparison& comparison, const std::string& input);

}  // namespace siglab
