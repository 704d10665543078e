#pragma once
#include <ostream>
#include <string>

#include "siglab/comparison.hpp"

namespace siglab::cli {

// The comparison as a fixed-width table for a terminal, one row per backend, with a header line
// naming the input and the filter.
void printComparisonTable(std::ostream& out, const Comparison& comparison, const std::string& input);

}  // namespace siglab::cli
