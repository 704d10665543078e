#include "text_probe.hpp"

#include <algorithm>

#include "text_parse.hpp"

namespace siglab {
namespace {

constexpr std::size_t kPreviewLines = 8;

std::string_view trim(std::string_view s) {
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; };
  while (!s.empty() && blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && blank(s.back())) s.remove_suffix(1);
  return s;
}

// The fields of a data line, split as the text reader does (textSeparator).
std::vector<std::string_view> splitFields(std::string_view line, char separator) {
  std::vector<std::string_view> fields;
  std::size_t pos = 0;
  while (pos <= line.size()) {
    if (separator == ' ') {
      while (pos < line.size() && (line[pos] == ' ' || line[pos] == '\t')) ++pos;
      if (pos == line.size()) break;
    }
    const std::size_t stop = separator == ' ' ? std::min(line.find_first_of(" \t", pos), line.size())
                                              : std::min(line.find(separator, pos), line.size());
    fields.push_back(trim(line.substr(pos, stop - pos)));
    pos = stop + 1;
  }
  return fields;
}

bool isNumber(std::string_view field, char decimal) {
  double value = 0;
  return !field.empty() && parseTextNumber(field, decimal, true, value);
}

// Whether a data line's fields are numbers with decimal commas: separated by ';', tabs or blanks,
// at least one holding a comma ("1,5;2,5").
bool hasDecimalCommas(std::string_view line) {
  if (textSeparator(line, '.') == ',') return false;
  const auto fields = splitFields(line, textSeparator(line, ','));
  const auto comma = [](std::string_view f) { return f.find(',') != std::string_view::npos; };
  return std::any_of(fields.begin(), fields.end(), comma) &&
         std::all_of(fields.begin(), fields.end(), [](std::string_view f) { return isNumber(f, ','); });
}

bool validUtf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t extra = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : 9;
    if (extra == 9) return false;
    if (i + extra >= s.size()) return true;  // cut by the probe's limit, not malformed
    for (std::size_t k = 1; k <= extra; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    }
    i += extra + 1;
  }
  return true;
}

}  // namespace

void probeTextHead(std::string_view text, FileProbe& probe) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  probe.binary = text.find('\0') != std::string_view::npos || !validUtf8(text);
  if (probe.binary) return;
  std::size_t dataLines = 0;
  for (std::size_t pos = 0; pos < text.size();) {
    const std::size_t eol = std::min(text.find('\n', pos), text.size());
    const std::string_view line = text.substr(pos, eol - pos);
    if (probe.preview.size() < kPreviewLines && eol < text.size()) probe.preview.emplace_back(trim(line));
    const std::string_view content = trim(line);
    const bool data = !content.empty() && content.front() != '#';
    if (data && ++dataLines == 1) {
      if (hasDecimalCommas(content)) probe.decimal = ',';
      const auto fields = splitFields(content, textSeparator(content, probe.decimal));
      probe.columns = fields.size();
      probe.header = !std::all_of(fields.begin(), fields.end(), [&](std::string_view f) { return isNumber(f, probe.decimal); });
      if (probe.header) {
        for (std::string_view f : fields) probe.headerNames.emplace_back(f);
      }
    } else if (data && dataLines == 2 && probe.header && hasDecimalCommas(content)) {
      probe.decimal = ',';  // the numbers under a header
    }
    if (dataLines >= 2 && probe.preview.size() >= kPreviewLines) break;
    pos = eol + 1;
  }
}


}  // namespace siglab
