#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "siglab/io/signal_io.hpp"

namespace siglab {

// The 1-based columns of a text file that readChannels reads, one a channel: options.columns
// (each checked against the first data line: InputError naming the file, the line and the columns
// it has), else options.column, else every numeric field of the first data line where it has
// several fields; {0} (the whole line: one number a line) otherwise.
std::vector<std::size_t> textColumnsToRead(std::string_view text, const ReadOptions& options, const std::string& path);

}  // namespace siglab
