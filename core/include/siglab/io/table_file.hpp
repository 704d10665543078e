#pragma once
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace siglab {

// Named columns of equal length, such as a spectrum's frequency and power.
struct Table {
  std::vector<std::string> names;
  std::vector<std::vector<double>> columns;
};

// Writes `table` atomically as the path's extension says: .npy, a float64 array of shape
// (rows, columns); anything else, CSV with a header line of the names and each value as the
// shortest text that reads back to the same double. Throws InputError naming the file.
void writeTable(const std::string& path, const Table& table);

}  // namespace siglab
