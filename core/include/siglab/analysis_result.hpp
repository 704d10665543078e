#pragma once
// An analysis stage's result handed to the caller in memory (a run into a MemorySink) instead of
// written to a file: the matrix's values in C order with its shape (the .npy it would write), or
// the table's columns, each its values down the rows (the CSV it would write, read column by
// column: what a front-end hands over as one array a column, without a copy). A complex matrix
// (stft, spectrogram mode complex) comes as NumPy's complex128 holds it: (re, im) pairs, of shape
// (frames, frequencies), or (frames, channels, frequencies), instead of the .npy's re and im planes,
// so that a front-end hands it over without a copy.
#include <cstdint>
#include <string>
#include <vector>

#include "siglab/io/sample_vector.hpp"

namespace siglab {

struct AnalysisResult {
  std::vector<std::uint64_t> shape;  // a matrix's (frames x frequencies, ...); a table's: rows x columns
  std::vector<std::string> columns;  // a table's column names; empty for a matrix
  SampleVector values;               // C order: a matrix's values (made whole, resultMemory())
  std::vector<SampleVector> columnValues;  // a table's: one a column, shape[0] values each
};

}  // namespace siglab
