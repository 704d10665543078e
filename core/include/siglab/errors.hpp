#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace siglab {

// A problem with a file the user named: it says which file, where and what was wrong, in the
// form "noise.txt:5:3: expected a number, found \"0.1x\"" (line and column only where known).
class InputError : public std::runtime_error {
 public:
  InputError(std::string path, std::uint64_t line, std::uint64_t column, const std::string& what);
  InputError(std::string path, const std::string& what);  // no position: missing file, I/O error

  const std::string& path() const { return path_; }
  std::uint64_t line() const { return line_; }      // 1-based; 0 when not about a line
  std::uint64_t column() const { return column_; }  // 1-based; 0 when not about a column

 private:
  std::string path_;
  std::uint64_t line_ = 0;
  std::uint64_t column_ = 0;
};

// The offending text as it goes into a message: quoted, cut to a readable length (in characters),
// control characters and bytes that are not UTF-8 escaped as a backslash, x and two hex digits: a
// message is always valid UTF-8, whatever bytes a file holds (Python drops one it cannot decode).
std::string quoteExcerpt(std::string_view text, std::size_t maxChars = 40);

}  // namespace siglab
