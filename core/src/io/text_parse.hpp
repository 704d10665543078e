#pragma once
// The text reader's pieces, for readers that parse a file window by window (sample_stream.cpp).
#include <cstdint>
#include <memory_resource>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/io/text_format.hpp"

namespace siglab {

// Where a text file's numbers start and how its lines are read: the byte order mark, leading
// comments and the skipped header are behind `body`, whose first line is line `firstLine` (1-based).
struct TextBody {
  std::string_view body;
  std::uint64_t firstLine = 1;
  std::size_t column = 0;
  char separator = ' ';
  bool allowNonFinite = false;
  char decimal = '.';
  // False when the text ends before the lines that decide where the body starts and how its lines
  // split (the header to skip, the first data line's separator): a stream's start, to read further.
  bool settled = true;
};

// How the fields of a delimited file are separated, from its first data line: a tab, else ';',
// else ',' (unless it is the decimal mark), else blanks. A comma comes after ';' and tabs, so that
// "1,5;2,5" is two fields with decimal commas, never four numbers cut at their commas.
char textSeparator(std::string_view line, char decimal);

// The `column`-th (1-based) field of a trimmed data line split at `separator` (textSeparator's), or
// nullopt when the line has fewer; `fieldsFound` says how many it has then.
std::optional<std::string_view> textField(std::string_view line, char separator, std::size_t column,
                                          std::size_t& fieldsFound);

// Parses `token` (trimmed) whole as one number with the decimal mark `decimal`.
bool parseTextNumber(std::string_view token, char decimal, bool allowNonFinite, double& value);
TextBody locateTextBody(std::string_view text, const TextReadOptions& options);

// The text options of a ReadOptions (what every text reader takes from it).
TextReadOptions textReadOptions(const ReadOptions& options);

// Parses `piece`, whole lines of `layout.body` whose first is line `firstLine` of the file, on all
// cores. Throws InputError at its first bad line (numbered from the file's start). May return no values.
// Lines are counted first, so the samples take one allocation from `memory` (nullptr: ordinary memory).
SampleVector parseTextPiece(std::string_view piece, const TextBody& layout, std::uint64_t firstLine,
                            const std::string& path, std::size_t chunkBytes, const Progress& progress,
                            std::pmr::memory_resource* memory = nullptr);

std::uint64_t countTextLines(std::string_view text);  // its '\n' bytes

}  // namespace siglab
