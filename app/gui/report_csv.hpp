#pragma once
#include <string>

#include "siglab/comparison.hpp"

namespace siglab::gui {

// The timing report as CSV, one line per engine, with the same fields as comparisonToJson.
std::string comparisonToCsv(const Comparison& comparison, const std::string& input);

}  // namespace siglab::gui
