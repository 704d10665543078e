#include "siglab/text_format.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "siglab/atomic_file.hpp"
#include "siglab/errors.hpp"

namespace siglab {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

std::string readWholeFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) throw InputError(path, "cannot read: it is a directory");
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError(path, std::string("cannot open: ") + std::strerror(errno));
  std::string contents;
  file.seekg(0, std::ios::end);
  const auto size = file.tellg();
  if (size > 0) {
    contents.resize(static_cast<std::size_t>(size));
    file.seekg(0);
    file.read(contents.data(), size);
  }
  if (file.bad()) throw InputError(path, "read failed");
  return contents;
}

// Parses one trimmed, non-empty token as a finite double, or throws naming its position.
double parseNumber(std::string_view token, const std::string& path, std::uint64_t line, std::uint64_t column) {
  std::string_view digits = token;
  if (digits.size() > 1 && digits[0] == '+' && digits[1] != '-' && digits[1] != '+') digits.remove_prefix(1);
  double value = 0.0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (ec == std::errc::result_out_of_range) {
    throw InputError(path, line, column, "number out of the float64 range, found " + quoteExcerpt(token));
  }
  if (ec != std::errc() || end != digits.data() + digits.size()) {
    throw InputError(path, line, column, "expected a number, found " + quoteExcerpt(token));
  }
  if (!std::isfinite(value)) {
    throw InputError(path, line, column, "expected a finite number, found " + quoteExcerpt(token));
  }
  return value;
}

}  // namespace

std::vector<double> parseTextSignal(std::string_view text, const std::string& path) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // UTF-8 byte order mark
  std::vector<double> values;
  values.reserve(text.size() / 20);  // the seed's lines are about 20 bytes
  std::uint64_t lineNumber = 0;
  std::size_t pos = 0;
  while (pos < text.size()) {
    ++lineNumber;
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;

    std::size_t first = 0;
    while (first < line.size() && isBlank(line[first])) ++first;
    std::size_t last = line.size();
    while (last > first && isBlank(line[last - 1])) --last;
    if (first == last || line[first] == '#') continue;
    values.push_back(parseNumber(line.substr(first, last - first), path, lineNumber, first + 1));
  }
  if (values.empty()) {
    throw InputError(path, text.empty() ? "the file is empty: expected one number per line"
                                        : "no numbers found: expected one number per line");
  }
  return values;
}

std::vector<double> readTextSignal(const std::string& path) {
  const std::string contents = readWholeFile(path);
  return parseTextSignal(contents, path);
}

void appendSeedFormat(std::span<const double> values, std::string& out) {
  char buffer[400];  // %.16f of the largest double is 309 + 1 + 16 characters and a sign
  for (double v : values) {
    char* end = buffer;
    if (std::isfinite(v)) {
      // std::to_chars(fixed, 16) is specified as printf("%.16f") in the C locale, and is faster.
      end = std::to_chars(buffer, buffer + sizeof buffer, v, std::chars_format::fixed, 16).ptr;
    } else {
      end = buffer + std::snprintf(buffer, sizeof buffer, "%2.16f", v);
    }
    *end++ = '\n';
    out.append(buffer, end);
  }
}

void writeTextSignal(const std::string& path, std::span<const double> values) {
  std::string contents;
  contents.reserve(values.size() * 20);
  appendSeedFormat(values, contents);
  writeFileAtomically(path, contents);
}

}  // namespace siglab
