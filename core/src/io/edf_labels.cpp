#include "edf_labels.hpp"

#include <algorithm>
#include <set>
#include <string_view>

#include "time_column.hpp"

namespace siglab {
namespace {

constexpr std::size_t kLabelWidth = 16;
constexpr std::size_t kUnitWidth = 8;

// `text` as EDF's ASCII header holds it: a micro sign (U+00B5 or Greek mu) as 'u', as in "uV";
// any other byte outside printable ASCII as '_'.
std::string headerAscii(std::string_view text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const std::string_view rest = text.substr(i);
    if (rest.starts_with("\xC2\xB5") || rest.starts_with("\xCE\xBC")) {
      out += 'u';
      ++i;
    } else if (byte >= 0x80) {
      out += '_';
      while (i + 1 < text.size() && (static_cast<unsigned char>(text[i + 1]) & 0xC0) == 0x80) ++i;  // one '_' a character
    } else {
      out += byte >= 32 && byte < 127 ? static_cast<char>(byte) : '_';
    }
  }
  return std::string(trimBlanks(out));
}

void addNote(std::string& note, const std::string& line) { note += (note.empty() ? "" : "; ") + line; }

}  // namespace

EdfLabels edfLabels(std::size_t channels, const std::vector<std::string>& names, const std::vector<std::string>& units) {
  EdfLabels out;
  std::set<std::string> taken;
  std::vector<std::string> cut;
  for (std::size_t c = 0; c < channels; ++c) {
    std::string label = c < names.size() ? headerAscii(names[c]) : "";
    if (label.empty() || label == "EDF Annotations") label = std::to_string(c + 1);
    std::string written = label.substr(0, kLabelWidth);
    written.erase(written.find_last_not_of(' ') + 1);
    for (std::size_t k = 2; taken.count(written) > 0; ++k) {  // "name~2": the first free one
      const std::string suffix = "~" + std::to_string(k);
      written = label.substr(0, kLabelWidth - suffix.size());
      written += suffix;
    }
    if (written != label) cut.push_back("\"" + label + "\" as \"" + written + "\"");
    taken.insert(written);
    out.labels.push_back(written);
    std::string unit = c < units.size() ? headerAscii(units[c]) : "";
    if (unit.size() > kUnitWidth) {
      addNote(out.note, "EDF's physical dimension holds 8 characters: \"" + unit + "\" written as \"" + unit.substr(0, kUnitWidth) + "\"");
      unit.resize(kUnitWidth);
    }
    out.units.push_back(unit);
  }
  if (!cut.empty()) {
    std::string list;
    for (std::size_t i = 0; i < cut.size() && i < 3; ++i) list += (i ? ", " : "") + cut[i];
    if (cut.size() > 3) list += " and " + std::to_string(cut.size() - 3) + " more";
    addNote(out.note, "EDF labels hold 16 characters, each different: " + list);
  }
  return out;
}

}  // namespace siglab
