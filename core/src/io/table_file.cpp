#include "siglab/io/table_file.hpp"

#include <charconv>
#include <stdexcept>

#include "siglab/io/atomic_file.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab {

void writeTable(const std::string& path, const Table& table) {
  const std::size_t rows = table.columns.empty() ? 0 : table.columns.front().size();
  for (const auto& column : table.columns) {
    if (column.size() != rows) throw std::invalid_argument("writeTable: columns of different lengths");
  }
  if (formatForOutput(path) == FileFormat::npy) {
    std::vector<double> cells;
    cells.reserve(rows * table.columns.size());
    for (std::size_t r = 0; r < rows; ++r) {
      for (const auto& column : table.columns) cells.push_back(column[r]);
    }
    const std::string header = npyHeader(rows, table.columns.size());
    const std::string_view pieces[] = {header, {reinterpret_cast<const char*>(cells.data()), cells.size() * sizeof(double)}};
    writeFileAtomically(path, pieces);
    return;
  }
  std::string text;
  for (std::size_t c = 0; c < table.names.size(); ++c) text += (c ? "," : "") + table.names[c];
  text += '\n';
  char number[32];
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < table.columns.size(); ++c) {
      if (c) text += ',';
      const auto end = std::to_chars(number, number + sizeof number, table.columns[c][r]).ptr;
      text.append(number, end);
    }
    text += '\n';
  }
  writeFileAtomically(path, text);
}

}  // namespace siglab
