#pragma once
// An analysis stage's result handed to the caller in memory (a run into a MemorySink) instead of
// written to a file: the matrix's values in C order with its shape (the .npy it would write), or
// the table's columns and its rows one after another (the CSV it would write).
#include <cstdint>
#include <string>
#include <vector>

#include "siglab/io/sample_vector.hpp"

namespace siglab {

struct AnalysisResult {
  std::vector<std::uint64_t> shape;  // a matrix's (frames x frequencies, ...); a table's: rows x columns
  std::vector<std::string> columns;  // a table's column names; empty for a matrix
  SampleVector values;               // C order: a matrix's values (made whole, resultMemory()), or a table's rows
};

}  // namespace siglab
