#include "siglab/errors.hpp"

#include <cstdio>

namespace siglab {
namespace {

std::string locate(const std::string& path, std::uint64_t line, std::uint64_t column) {
  std::string where = path;
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on ":" + std::to_string(...).
  if (line > 0) where.append(":").append(std::to_string(line));
  if (column > 0) where.append(":").append(std::to_string(column));
  return where;
}

}  // namespace

InputError::InputError(std::string path, std::uint64_t line, std::uint64_t column, const std::string& what)
    : std::runtime_error(locate(path, line, column) + ": " + what),
      path_(std::move(path)), line_(line), column_(column) {}

InputError::InputError(std::string path, const std::string& what)
    : std::runtime_error(path + ": " + what), path_(std::move(path)) {}

std::string quoteExcerpt(std::string_view text, std::size_t maxChars) {
  std::string quoted = "\"";
  std::size_t shown = 0;
  for (char c : text) {
    if (shown == maxChars) {
      quoted += "...";
      break;
    }
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      quoted += escaped;
    } else {
      quoted += c;
    }
    ++shown;
  }
  return quoted + "\"";
}

}  // namespace siglab
