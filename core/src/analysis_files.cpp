#include "analysis_files.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

#include "siglab/io/binary_formats.hpp"
#include "siglab/large_page_resource.hpp"
#include "usable_threads.hpp"

namespace siglab::detail {
namespace {

Durability durabilityFor(bool streamed) { return streamed ? Durability::uncached : Durability::flushed; }

// Table rows appended at once from which the columns are filled on every core.
constexpr std::size_t kRowsWorthThreads = std::size_t{1} << 14;

}  // namespace

NpyMatrixFile::NpyMatrixFile(const std::string& path, std::vector<std::uint64_t> shape, bool streamed, AnalysisResult* memory,
                             std::pmr::memory_resource* values)
    : shape_(std::move(shape)), memory_(memory) {
  for (const std::uint64_t n : shape_) expected_ *= n;
  if (memory_) {
    *memory_ = AnalysisResult{shape_, {}, {}, {}};
    // Every value is written once.
    memory_->values = SampleVector(ForOverwrite{}, expected_, values ? values : resultMemory());
    return;
  }
  file_ = std::make_unique<AtomicFileWriter>(path, durabilityFor(streamed), DirectOutput::spooled);
  file_->append(npyHeaderForShape(shapeText()));
}

std::string NpyMatrixFile::shapeText() const {
  std::string text = "(";
  for (std::size_t i = 0; i < shape_.size(); ++i) text += (i ? ", " : "") + std::to_string(shape_[i]);
  return text + (shape_.size() == 1 ? ",)" : ")");
}

void NpyMatrixFile::append(std::span<const double> values) {
  if (values.size() > expected_ - written_) throw std::logic_error("an analysis wrote past its matrix's shape");
  if (memory_) {
    std::copy(values.begin(), values.end(), memory_->values.begin() + static_cast<std::ptrdiff_t>(written_));
  } else {
    file_->append(std::string_view(reinterpret_cast<const char*>(values.data()), values.size_bytes()));
  }
  written_ += values.size();
}

std::span<double> NpyMatrixFile::writable(std::size_t count) {
  if (!memory_) return {};
  if (count > expected_ - written_) throw std::logic_error("an analysis wrote past its matrix's shape");
  return std::span<double>(memory_->values).subspan(written_, count);
}

void NpyMatrixFile::wrote(std::size_t count) {
  if (!memory_ || count > expected_ - written_) throw std::logic_error("an analysis wrote past its matrix's shape");
  written_ += count;
}

void NpyMatrixFile::commit() {
  if (written_ != expected_) throw std::logic_error("an analysis wrote fewer values than its matrix's shape holds");
  if (file_) file_->commit();
}

bool isJsonTable(const std::string& path) { return path.size() >= 5 && path.compare(path.size() - 5, 5, ".json") == 0; }

std::string numberText(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof(buffer), v).ptr;
  return std::string(buffer, end);
}

TableFile::TableFile(const std::string& path, std::vector<std::string> columns, bool streamed, AnalysisResult* memory,
                     std::uint64_t rowsAtMost)
    : json_(isJsonTable(path)), columns_(columns.size()), memory_(memory) {
  if (memory_) {
    *memory_ = AnalysisResult{{0, columns_}, std::move(columns), {}, {}};
    // Set aside up to 2^24 rows a column (128 MiB, untouched until written); beyond, a column grows.
    const auto rows = static_cast<std::size_t>(std::min<std::uint64_t>(rowsAtMost, std::uint64_t{1} << 24));
    for (std::size_t k = 0; k < columns_; ++k) {
      SampleVector& column = memory_->columnValues.emplace_back(ForOverwrite{}, 0, resultMemory());
      column.reserve(rows);
    }
    return;
  }
  file_ = std::make_unique<AtomicFileWriter>(path, durabilityFor(streamed), DirectOutput::spooled);
  std::string head = json_ ? "{\"columns\": [" : "";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    head += (i ? (json_ ? ", " : ",") : "") + (json_ ? "\"" + columns[i] + "\"" : columns[i]);
  }
  head += json_ ? "], \"rows\": [" : "\n";
  file_->append(head);
}

void TableFile::append(std::span<const double> row) {
  if (row.size() != columns_) throw std::logic_error("a table row of the wrong width");
  if (memory_) return appendRows(row);
  if (json_) pending_ += rows_ ? ",\n  [" : "\n  [";
  for (std::size_t i = 0; i < row.size(); ++i) {
    const std::string v = numberText(row[i]);
    // JSON has no NaN or infinity: null stands for them.
    pending_ += (i ? (json_ ? ", " : ",") : "") + (json_ && !std::isfinite(row[i]) ? std::string("null") : v);
  }
  pending_ += json_ ? "]" : "\n";
  ++rows_;
  if (pending_.size() > (std::size_t{1} << 20)) {
    file_->append(pending_);
    pending_.clear();
  }
}

void TableFile::appendRows(std::span<const double> values) {
  if (columns_ == 0 || values.size() % columns_ != 0) throw std::logic_error("table rows of the wrong width");
  const std::size_t rows = values.size() / columns_;
  if (!memory_) {
    for (std::size_t r = 0; r < rows; ++r) append(values.subspan(r * columns_, columns_));
    return;
  }
  appendColumns(rows, [&](std::size_t first, std::size_t count, std::span<double* const> columns) {
    for (std::size_t r = 0; r < count; ++r) {
      for (std::size_t k = 0; k < columns_; ++k) columns[k][r] = values[(first + r) * columns_ + k];
    }
  });
}

// A column's new rows fault its fresh pages in (the kernel zeroes them): row ranges on every core
// where rows are many.
void TableFile::appendColumns(std::size_t rows, const ColumnFill& fill) {
  if (!memory_) throw std::logic_error("appendColumns writes a table in memory only");
  std::vector<double*> starts(columns_);
  for (std::size_t k = 0; k < columns_; ++k) {
    SampleVector& column = memory_->columnValues[k];
    const std::size_t from = column.size();
    column.resize(from + rows);  // uninitialised (ForOverwrite), every value written by `fill`
    starts[k] = column.data() + from;
  }
  const auto pieces = static_cast<std::int64_t>((rows + kRowsWorthThreads - 1) / kRowsWorthThreads);
#pragma omp parallel for schedule(dynamic, 1) if (pieces > 1 && detail::usableThreads() > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::size_t first = static_cast<std::size_t>(p) * kRowsWorthThreads;
    const std::size_t count = std::min(kRowsWorthThreads, rows - first);
    std::vector<double*> at(columns_);
    for (std::size_t k = 0; k < columns_; ++k) at[k] = starts[k] + first;
    fill(first, count, at);
  }
  rows_ += rows;
  memory_->shape.front() = rows_;
}

void TableFile::commit() {
  if (memory_) return;
  if (json_) pending_ += rows_ ? "\n]}\n" : "]}\n";
  file_->append(pending_);
  pending_.clear();
  file_->commit();
}

}  // namespace siglab::detail
