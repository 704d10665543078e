#pragma once
// The files analysis stages write: a float64 .npy matrix appended row block by row block, and a
// table (CSV, or JSON by the output's extension). Both appear only at commit(), atomically. Given
// an AnalysisResult (`memory`), either goes there instead and no file is made.
#include <cstdint>
#include <functional>
#include <memory>
#include <memory_resource>
#include <span>
#include <string>
#include <vector>

#include "siglab/analysis_result.hpp"
#include "siglab/io/atomic_file.hpp"

namespace siglab::detail {

// A C-order float64 .npy of `shape`, whose header is written first: the values must come to
// exactly the shape's count before commit().
class NpyMatrixFile {
 public:
  // In memory, the values are made in `values` (null: resultMemory()).
  NpyMatrixFile(const std::string& path, std::vector<std::uint64_t> shape, bool streamed, AnalysisResult* memory = nullptr,
                std::pmr::memory_resource* values = nullptr);
  void append(std::span<const double> values);
  // In memory: where the next `count` values go in the result itself, for the caller to write
  // there and then say wrote(count) (no copy); empty for a file (append() them).
  std::span<double> writable(std::size_t count);
  void wrote(std::size_t count);
  void commit();
  // "(1953, 513)"
  std::string shapeText() const;

 private:
  std::vector<std::uint64_t> shape_;
  std::uint64_t expected_ = 1;
  std::uint64_t written_ = 0;
  std::unique_ptr<AtomicFileWriter> file_;
  AnalysisResult* memory_ = nullptr;
};

// Whether `path` names a table written as JSON (.json), else CSV.
bool isJsonTable(const std::string& path);

// A table of numbers, one row a record, written row block by row block: CSV (a header line, then
// the rows; numbers as the shortest text that reads back to the same double) or JSON
// ({"columns": [...], "rows": [[...], ...]}).
class TableFile {
 public:
  // In memory, each column's values are set aside for `rowsAtMost` rows (where known), in memory
  // that is only touched as rows come.
  TableFile(const std::string& path, std::vector<std::string> columns, bool streamed, AnalysisResult* memory = nullptr,
            std::uint64_t rowsAtMost = 0);
  void append(std::span<const double> row);  // one value a column
  // Rows one after another, one value a column each (`values` a whole number of rows): in memory,
  // each column grows once.
  void appendRows(std::span<const double> values);
  // In memory only: `rows` new rows written straight into the columns, without a row-major copy:
  // fill(first, count, columns) writes new rows [first, first + count), columns[k][r] being column
  // k's value of new row first + r; the row ranges run on every core where rows are many.
  using ColumnFill = std::function<void(std::size_t first, std::size_t count, std::span<double* const> columns)>;
  void appendColumns(std::size_t rows, const ColumnFill& fill);
  bool inMemory() const { return memory_ != nullptr; }
  void commit();
  std::uint64_t rows() const { return rows_; }
  std::size_t columns() const { return columns_; }

 private:
  bool json_;
  std::size_t columns_;
  std::uint64_t rows_ = 0;
  std::string pending_;
  std::unique_ptr<AtomicFileWriter> file_;
  AnalysisResult* memory_ = nullptr;
};

// The shortest text that reads back to `v` ("3", "0.1", "nan", "inf").
std::string numberText(double v);

}  // namespace siglab::detail
