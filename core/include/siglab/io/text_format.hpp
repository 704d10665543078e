#pragma once
#include <cstdint>
#include <memory_resource>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/io/atomic_file.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/progress.hpp"

namespace siglab {

struct TextReadOptions {
  std::size_t column = 0;        // 0: one number a line; K >= 1: the K-th field of each line
  bool skipHeader = false;       // ignore the first line that is neither blank nor a comment
  char decimal = '.';            // the decimal mark: '.' or ',' ("1,5;2,5": then ',' never separates fields)
  bool allowNonFinite = false;   // accept nan, inf, infinity
  std::size_t chunkBytes = 1 << 20;  // the unit of parallel work; small values let tests cross many joins
  std::pmr::memory_resource* memory = nullptr;  // where the samples go; nullptr: ordinary memory
};

// Parses text with one number a line (or a chosen column of a CSV, TSV or blank-separated file).
// Accepts a UTF-8 byte order mark, CRLF, blanks around a value, blank lines, '#' comment lines and
// a leading '+'. Fields are separated by tabs, else ';', else ',', else blanks (textSeparator); a
// field that is not wholly one number is an error, never read in part. Parses chunks in parallel; a malformed file throws InputError naming
// `pathForMessages`, the line and column of its FIRST error and the offending text.
SampleVector parseTextSignal(std::string_view text, const std::string& pathForMessages,
                             const TextReadOptions& options = {}, const Progress& progress = {});

// Appends each value as printf("%2.16f\n", v) writes it (serially).
void appendSeedFormat(std::span<const double> values, std::string& out);
// Appends each value as the shortest text that reads back to the same double, one a line.
void appendShortestFormat(std::span<const double> values, std::string& out);

// Appends `values` one a line to `file` (not committed): formatted on all cores, written in order.
void appendTextLines(AtomicFileWriter& file, std::span<const double> values, TextStyle style,
                     const Progress& progress = {});

// Writes `values` one a line to `path` atomically (see AtomicFileWriter): formatted on all cores
// and written in order as the pieces complete, with a few megabytes in memory at a time.
void writeTextFile(const std::string& path, std::span<const double> values, TextStyle style, Durability durability,
                   const Progress& progress = {});

// Shorthands over readSignal and writeSignal for text of one number a line.
std::vector<double> readTextSignal(const std::string& path);
void writeTextSignal(const std::string& path, std::span<const double> values);

}  // namespace siglab
