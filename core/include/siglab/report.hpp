#pragma once
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "siglab/comparison.hpp"

namespace siglab {

// The comparison as JSON: spec, options, one object per backend (status, timings, speedups,
// agreement). `input` names the signal's source.
nlohmann::json comparisonToJson(const Comparison& comparison, const std::string& input);

// The same as CSV, one line per engine, built from the JSON so the two never disagree.
std::string comparisonToCsv(const Comparison& comparison, const std::string& input);

// The report for `path`: CSV when it ends in .csv (any case), JSON otherwise.
std::string comparisonReport(const Comparison& comparison, const std::string& input, const std::string& path,
                             std::optional<double> sampleRate = std::nullopt);  // JSON records the rate (Hz) or null

}  // namespace siglab
