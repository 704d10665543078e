#pragma once
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "siglab/comparison.hpp"
#include "siglab/stage_comparison.hpp"

namespace siglab {

// The comparison as JSON: spec, options, one object per backend (status, timings, speedups,
// agreement). `input` names the signal's source.
nlohmann::json comparisonToJson(const Comparison& comparison, const std::string& input);

// The same as CSV, one line per engine, built from the JSON so the two never disagree.
std::string comparisonToCsv(const Comparison& comparison, const std::string& input);

// The report for `path`: CSV when it ends in .csv (any case), JSON otherwise.
std::string comparisonReport(const Comparison& comparison, const std::string& input, const std::string& path,
                             std::optional<double> sampleRate = std::nullopt);  // JSON records the rate (Hz) or null

// A chain's comparison as one document. One stage: comparisonReport's, as before chains. More:
// JSON {"input", "chain", "all_agree", "sample_rate_hz", "stages": [{"stage": 1, "label", "chain",
// ...that stage's comparison}, ...]}; CSV the one header with "stage" and "stage_chain" in front,
// each stage's lines after it.
std::string chainComparisonReport(const ChainComparison& chain, const std::string& input, const std::string& path,
                                  std::optional<double> sampleRate = std::nullopt);

}  // namespace siglab
