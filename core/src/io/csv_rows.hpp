#pragma once
#include <cstddef>
#include <span>
#include <string>

#include "siglab/io/signal_io.hpp"

namespace siglab {

// Appends frames [first, first + count) of planar `channels` as CSV lines: one a frame, the
// channels separated by ',', each value as the text writer writes it in `style`.
void appendCsvRows(std::span<const std::span<const double>> channels, std::size_t first, std::size_t count,
                   TextStyle style, std::string& out);

}  // namespace siglab
