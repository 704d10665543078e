#include "text_columns.hpp"

#include <limits>
#include <optional>
#include <stdexcept>

#include "siglab/errors.hpp"
#include "text_parse.hpp"

namespace siglab {
namespace {

std::string_view trimBlanks(std::string_view line) {
  constexpr std::string_view kBlanks = " \t\r\f\v";
  const std::size_t first = line.find_first_not_of(kBlanks);
  if (first == std::string_view::npos) return {};
  return line.substr(first, line.find_last_not_of(kBlanks) - first + 1);
}

struct DataLine {
  std::string_view text;  // trimmed
  std::uint64_t line = 1;
};

// The first line of `body` (whose first line is `firstLine`) that is neither blank nor a comment.
std::optional<DataLine> firstDataLine(std::string_view body, std::uint64_t firstLine) {
  std::size_t at = 0;
  for (std::uint64_t line = firstLine; at < body.size(); ++line) {
    const std::size_t eol = std::min(body.find('\n', at), body.size());
    const std::string_view content = trimBlanks(body.substr(at, eol - at));
    if (!content.empty() && content.front() != '#') return DataLine{content, line};
    at = eol + 1;
  }
  return std::nullopt;
}

std::string separatorWords(char separator) {
  return separator == ' ' ? "blanks" : separator == '\t' ? "tabs" : std::string("'") + separator + "'";
}

}  // namespace

std::vector<std::size_t> textColumnsToRead(std::string_view text, const ReadOptions& options, const std::string& path) {
  for (const std::size_t column : options.columns) {
    if (column == 0) throw std::invalid_argument("columns count from 1");
  }
  if (options.columns.empty() && options.column > 0) return {options.column};
  TextReadOptions split = textReadOptions(options);
  split.column = 1;  // so that the body's separator is decided
  const TextBody body = locateTextBody(text, split);
  const std::optional<DataLine> first = firstDataLine(body.body, body.firstLine);
  if (!first) return options.columns.empty() ? std::vector<std::size_t>{0} : options.columns;  // the reader says why
  std::size_t fields = 0;
  textField(first->text, body.separator, std::numeric_limits<std::size_t>::max(), fields);
  if (!options.columns.empty()) {
    for (const std::size_t column : options.columns) {
      if (column > fields) {
        throw InputError(path, first->line, 1,
                         "column " + std::to_string(column) + " asked for, but the file has " + std::to_string(fields) +
                             (fields == 1 ? " column" : " columns") + " (separated by " +
                             separatorWords(body.separator) + ")");
      }
    }
    return options.columns;
  }
  std::vector<std::size_t> numeric;
  for (std::size_t column = 1; fields > 1 && column <= fields; ++column) {
    std::size_t found = 0;
    double value = 0.0;
    const auto field = textField(first->text, body.separator, column, found);
    if (field && parseTextNumber(*field, options.decimal, true, value)) numeric.push_back(column);
  }
  return numeric.empty() ? std::vector<std::size_t>{0} : numeric;
}

}  // namespace siglab
