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

namespace {

// The length of the UTF-8 sequence `text` starts with (1 to 4), or 0 where its first byte starts
// none (a stray continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short).
std::size_t utf8Length(std::string_view text) {
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = at(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xbf;  // the second byte's range
  if (lead >= 0xc2 && lead <= 0xdf) {
    length = 2;
  } else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead == 0xe0) low = 0xa0;
    if (lead == 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead == 0xf0) low = 0x90;
    if (lead == 0xf4) high = 0x8f;
  } else {
    return 0;
  }
  if (text.size() < length || at(1) < low || at(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (at(i) < 0x80 || at(i) > 0xbf) return 0;
  }
  return length;
}

}  // namespace

std::string quoteExcerpt(std::string_view text, std::size_t maxChars) {
  std::string quoted = "\"";
  std::size_t shown = 0;
  for (std::size_t i = 0; i < text.size();) {
    if (shown == maxChars) {
      quoted += "...";
      break;
    }
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    const std::size_t length = utf8Length(text.substr(i));
    if (c == '"' || c == '\\') {
      quoted += '\\';
      quoted += c;
    } else if (length == 0 || byte < 0x20 || byte == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
      quoted += escaped;
    } else {
      quoted.append(text.substr(i, length));
    }
    i += length == 0 ? 1 : length;
    ++shown;
  }
  return quoted + "\"";
}

}  // namespace siglab
