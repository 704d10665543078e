#pragma once
#include <span>
#include <string>
#include <vector>

namespace siglab {

// The seed's text format: one number per line. Reading accepts CRLF, blanks around a value,
// blank lines and '#' comment lines, and rejects anything else with its line and column.
// Throws InputError naming `path` (an empty, unreadable or malformed file gives no signal).
std::vector<double> readTextSignal(const std::string& path);
std::vector<double> parseTextSignal(std::string_view text, const std::string& pathForMessages);

// Appends each value as printf("%2.16f\n", v) writes it.
void appendSeedFormat(std::span<const double> values, std::string& out);

// Writes `values` in the seed format to `path` atomically: a temporary file in the same folder,
// renamed over `path` only once complete. Throws InputError (naming `path`) on failure, leaving
// any existing file untouched and no temporary behind.
void writeTextSignal(const std::string& path, std::span<const double> values);

}  // namespace siglab
