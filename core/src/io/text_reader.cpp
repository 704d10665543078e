#include <algorithm>
#include <atomic>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "parallel_work.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/text_format.hpp"
#include "text_parse.hpp"

namespace siglab {
namespace {

bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

const char* lineEnd(const char* p, const char* end) {
  const void* newline = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
  return newline ? static_cast<const char*>(newline) : end;
}

std::string_view trimmed(const char* begin, const char* end) {
  while (begin < end && isBlank(*begin)) ++begin;
  while (end > begin && isBlank(end[-1])) --end;
  return {begin, static_cast<std::size_t>(end - begin)};
}

// A leading '+' (which from_chars does not take) is skipped unless a second sign follows.
const char* skipPlus(const char* p, const char* end) {
  return (end - p > 1 && *p == '+' && p[1] != '+' && p[1] != '-') ? p + 1 : p;
}

bool parseToken(std::string_view token, bool allowNonFinite, double& value) {
  const char* end = token.data() + token.size();
  const auto [stop, ec] = std::from_chars(skipPlus(token.data(), end), end, value);
  return ec == std::errc() && stop == end && (allowNonFinite || std::isfinite(value));
}

// `token` with its decimal comma made a point, for from_chars; empty when it holds a point (not a
// number in that notation).
std::string withDecimalPoint(std::string_view token) {
  if (token.find('.') != std::string_view::npos) return {};
  std::string text(token);
  std::replace(text.begin(), text.end(), ',', '.');
  return text;
}

// Why `token` (trimmed, known to be bad) is not an acceptable number.
std::string describeBadToken(std::string_view token, char decimal, char separator) {
  double value = 0.0;
  const std::string converted = decimal == ',' ? withDecimalPoint(token) : std::string(token);
  const char* end = converted.data() + converted.size();
  const auto [stop, ec] = std::from_chars(skipPlus(converted.data(), end), end, value);
  if (converted.empty() || ec == std::errc::invalid_argument || stop != end) {
    if (decimal == '.' && separator != ',' && token.find(',') != std::string_view::npos &&
        parseTextNumber(token, ',', true, value)) {
      return "expected a number, found " + quoteExcerpt(token) + " (a decimal comma? read it with --decimal ,)";
    }
    return "expected a number" + std::string(decimal == ',' ? " with a decimal comma" : "") + ", found " +
           quoteExcerpt(token);
  }
  if (ec == std::errc::result_out_of_range) return "number out of the float64 range, found " + quoteExcerpt(token);
  return "expected a finite number, found " + quoteExcerpt(token);
}

// The first problem in a chunk, its line counted from the chunk's first line (0-based).
struct LineError {
  std::uint64_t line = 0;
  std::uint64_t column = 0;  // 1-based
  std::string message;
};

// How the fields of a delimited file are separated; decided once from its first data line.
enum class Separator : char { comma = ',', tab = '\t', semicolon = ';', blanks = ' ' };

std::string separatorName(Separator s) {
  switch (s) {
    case Separator::comma: return "','";
    case Separator::tab: return "tabs";
    case Separator::semicolon: return "';'";
    case Separator::blanks: return "blanks";
  }
  return "?";
}

// The `column`-th (1-based) field of a trimmed data line, or nullopt (with the number of fields
// found) when the line has fewer.
std::optional<std::string_view> findField(std::string_view line, Separator separator, std::size_t column,
                                          std::size_t& fieldsFound) {
  std::size_t start = 0;
  fieldsFound = 0;
  while (start <= line.size()) {
    std::size_t stop = 0;
    if (separator == Separator::blanks) {
      while (start < line.size() && isBlank(line[start])) ++start;
      if (start == line.size()) break;
      stop = start;
      while (stop < line.size() && !isBlank(line[stop])) ++stop;
    } else {
      stop = std::min(line.find(static_cast<char>(separator), start), line.size());
    }
    if (++fieldsFound == column) return trimmed(line.data() + start, line.data() + stop);
    start = stop + 1;
  }
  return std::nullopt;
}

struct Grammar {
  std::size_t column = 0;  // 0: the whole line is the one field
  Separator separator = Separator::blanks;
  bool allowNonFinite = false;
  char decimal = '.';
};

// A mapped file that another program rewrites can hold more lines when parsed than when counted:
// each chunk writes at most the values it counted room for, and says so if there are more.
LineError fileChangedError(std::uint64_t line) {
  return LineError{line, 1, "the file changed while it was being read (another program is writing it): try again"};
}

// One number a line with a decimal point, the seed format: the hot path, parsing straight from the buffer.
std::uint64_t parseSingleColumn(std::string_view chunk, double* out, const double* outEnd, const Grammar& g,
                                std::optional<LineError>& error) {
  const char* p = chunk.data();
  const char* const end = p + chunk.size();
  double* next = out;
  for (std::uint64_t line = 0; p < end; ++line) {
    const char* const lineStart = p;
    while (p < end && isBlank(*p)) ++p;
    if (p < end && *p == '#') {
      p = lineEnd(p, end);
    } else if (p < end && *p != '\n') {
      double value = 0.0;
      const auto [stop, ec] = std::from_chars(skipPlus(p, end), end, value);
      const char* after = stop;
      while (after < end && isBlank(*after)) ++after;
      if (ec != std::errc() || (after < end && *after != '\n') || (!g.allowNonFinite && !std::isfinite(value))) {
        const std::string_view token = trimmed(p, lineEnd(p, end));
        error = LineError{line, static_cast<std::uint64_t>(p - lineStart) + 1, describeBadToken(token, '.', ' ')};
        break;
      }
      if (next == outEnd) {
        error = fileChangedError(line);
        break;
      }
      *next++ = value;
      p = after;
    }
    if (p < end) ++p;  // past the '\n'
  }
  return static_cast<std::uint64_t>(next - out);
}

// A chosen column of a delimited file (or, column 0, the whole line: one number a line with a decimal comma).
std::uint64_t parseColumn(std::string_view chunk, double* out, const double* outEnd, const Grammar& g,
                          std::optional<LineError>& error) {
  const char* p = chunk.data();
  const char* const end = p + chunk.size();
  double* next = out;
  for (std::uint64_t line = 0; p < end; ++line) {
    const char* const lineStart = p;
    const char* const eol = lineEnd(p, end);
    p = eol < end ? eol + 1 : end;
    const std::string_view content = trimmed(lineStart, eol);
    if (content.empty() || content.front() == '#') continue;
    std::size_t fields = 0;
    const auto field = g.column == 0 ? std::optional(content) : findField(content, g.separator, g.column, fields);
    if (!field) {
      error = LineError{line, static_cast<std::uint64_t>(content.data() - lineStart) + 1,
                        "expected at least " + std::to_string(g.column) + " columns separated by " +
                            separatorName(g.separator) + ", found " + std::to_string(fields) + " in " +
                            quoteExcerpt(content)};
      break;
    }
    if (next == outEnd) {
      error = fileChangedError(line);
      break;
    }
    if (!parseTextNumber(*field, g.decimal, g.allowNonFinite, *next)) {
      const auto column = static_cast<std::uint64_t>(field->data() - lineStart) + 1;
      error = LineError{line, column, describeBadToken(*field, g.decimal, static_cast<char>(g.separator))};
      break;
    }
    ++next;
  }
  return static_cast<std::uint64_t>(next - out);
}

// std::count is not vectorised at -O2 (124 ms for 195 MB here); 16-byte compares with GCC/Clang
// vector extensions take 17 ms.
std::uint64_t countNewlines(std::string_view text) {
  typedef signed char Bytes16 __attribute__((vector_size(16)));
  typedef unsigned char Counts16 __attribute__((vector_size(16)));  // unsigned: wraps without UB
  constexpr Bytes16 kNewlines = {'\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n',
                                 '\n', '\n', '\n', '\n', '\n', '\n', '\n', '\n'};
  const char* p = text.data();
  std::size_t left = text.size();
  std::uint64_t total = 0;
  while (left >= 16) {
    Counts16 counts = {};  // per lane, at most 255 blocks before they are summed
    const std::size_t blocks = std::min<std::size_t>(left / 16, 255);
    for (std::size_t b = 0; b < blocks; ++b, p += 16) {
      Bytes16 block;
      std::memcpy(&block, p, 16);
      counts -= reinterpret_cast<Counts16>(block == kNewlines);  // a match is all ones: 255, -1 mod 256
    }
    left -= blocks * 16;
    for (int lane = 0; lane < 16; ++lane) total += counts[lane];
  }
  return total + static_cast<std::uint64_t>(std::count(p, p + left, '\n'));
}

struct Chunk {
  std::string_view text;
  std::uint64_t newlines = 0;
  std::uint64_t firstSlot = 0;  // where its values go in the output before compaction
  std::uint64_t values = 0;
  std::optional<LineError> error;
};

// Line boundaries about every `chunkBytes` bytes: each chunk ends just after a '\n' or at the end.
std::vector<Chunk> splitAtLines(std::string_view body, std::size_t chunkBytes) {
  std::vector<Chunk> chunks;
  std::size_t start = 0;
  while (start < body.size()) {
    std::size_t stop = body.size();
    if (body.size() - start > chunkBytes) {
      const std::size_t newline = body.find('\n', start + chunkBytes - 1);
      if (newline != std::string_view::npos) stop = newline + 1;
    }
    chunks.emplace_back().text = body.substr(start, stop - start);
    start = stop;
  }
  return chunks;
}

// The lines before the body (a byte order mark, comments and the header skipped serially) and
// the separator of a delimited file.
struct Preamble {
  std::string_view body;
  std::uint64_t firstLine = 1;
  Separator separator = Separator::blanks;
  bool settled = true;
};

Preamble readPreamble(std::string_view text, const TextReadOptions& options) {
  Preamble preamble{text};
  if (preamble.body.substr(0, 3) == "\xEF\xBB\xBF") preamble.body.remove_prefix(3);  // UTF-8 byte order mark
  // The first line that is neither blank nor a comment, and what follows it.
  auto firstDataLine = [](std::string_view body, std::uint64_t& linesBefore) -> std::optional<std::string_view> {
    std::size_t pos = 0;
    for (linesBefore = 0; pos < body.size(); ++linesBefore) {
      const std::size_t eol = std::min(body.find('\n', pos), body.size());
      const std::string_view line = trimmed(body.data() + pos, body.data() + eol);
      if (!line.empty() && line.front() != '#') return body.substr(pos, eol - pos);
      pos = eol + 1;
    }
    return std::nullopt;
  };
  std::uint64_t linesBefore = 0;
  if (options.skipHeader) {
    if (const auto header = firstDataLine(preamble.body, linesBefore)) {
      const std::size_t after = static_cast<std::size_t>(header->data() + header->size() - preamble.body.data()) + 1;
      preamble.body.remove_prefix(std::min(after, preamble.body.size()));
      preamble.firstLine += linesBefore + 1;
    } else {
      preamble.settled = false;
    }
  }
  if (options.column > 0) {
    if (const auto line = firstDataLine(preamble.body, linesBefore)) {
      preamble.separator = static_cast<Separator>(textSeparator(*line, options.decimal));
    } else {
      preamble.settled = false;
    }
  }
  return preamble;
}

}  // namespace

TextReadOptions textReadOptions(const ReadOptions& options) {
  TextReadOptions text;
  text.column = options.column;
  text.skipHeader = options.skipHeader;
  text.decimal = options.decimal;
  text.allowNonFinite = options.allowNonFinite;
  text.memory = options.hostMemory;
  return text;
}

char textSeparator(std::string_view line, char decimal) {
  for (const char s : {'\t', ';', ','}) {
    if (!(s == ',' && decimal == ',') && line.find(s) != std::string_view::npos) return s;
  }
  return ' ';
}

std::optional<std::string_view> textField(std::string_view line, char separator, std::size_t column,
                                          std::size_t& fieldsFound) {
  return findField(line, static_cast<Separator>(separator), column, fieldsFound);
}

bool parseTextNumber(std::string_view token, char decimal, bool allowNonFinite, double& value) {
  if (decimal == '.') return parseToken(token, allowNonFinite, value);
  const std::string converted = withDecimalPoint(token);
  return !converted.empty() && parseToken(converted, allowNonFinite, value);
}

TextBody locateTextBody(std::string_view text, const TextReadOptions& options) {
  const Preamble preamble = readPreamble(text, options);
  if (options.decimal != '.' && options.decimal != ',') {
    throw std::invalid_argument(std::string("the decimal mark is '.' or ',', not '") + options.decimal + "'");
  }
  return TextBody{preamble.body, preamble.firstLine, options.column, static_cast<char>(preamble.separator),
                  options.allowNonFinite, options.decimal, preamble.settled};
}

std::uint64_t countTextLines(std::string_view text) { return countNewlines(text); }

SampleVector parseTextPiece(std::string_view piece, const TextBody& layout, std::uint64_t firstLine,
                            const std::string& path, std::size_t chunkBytes, const Progress& progress,
                            std::pmr::memory_resource* memory) {
  const Grammar grammar{layout.column, static_cast<Separator>(layout.separator), layout.allowNonFinite, layout.decimal};
  std::vector<Chunk> chunks = splitAtLines(piece, std::max<std::size_t>(chunkBytes, 1));

  // Pass 1: count lines, so that each chunk knows where its values go (at most one a line).
  runParallel(chunks.size(), [&](std::size_t i) {
    chunks[i].newlines = countNewlines(chunks[i].text);
  });
  std::uint64_t slots = 0;
  for (Chunk& c : chunks) {
    c.firstSlot = slots;
    // A value needs a line with a byte besides its '\n': a file of blank lines asks for no memory.
    const std::uint64_t lines = c.newlines + (c.text.back() == '\n' ? 0 : 1);
    slots += std::min<std::uint64_t>(lines, c.text.size() - c.newlines);
  }
  SampleVector samples = allocateSamples(slots, memory);

  // Pass 2: parse the chunks in parallel; chunks after one with an error are not needed.
  std::atomic<std::size_t> firstBadChunk{chunks.size()};
  std::atomic<std::uint64_t> bytesDone{0};
  runParallel(chunks.size(), [&](std::size_t i) {
    progress.throwIfCancelled();
    if (i > firstBadChunk.load(std::memory_order_relaxed)) return;
    Chunk& c = chunks[i];
    double* out = samples.data() + c.firstSlot;
    const double* outEnd = samples.data() + (i + 1 < chunks.size() ? chunks[i + 1].firstSlot : slots);
    c.values = grammar.column == 0 && grammar.decimal == '.' ? parseSingleColumn(c.text, out, outEnd, grammar, c.error)
                                                             : parseColumn(c.text, out, outEnd, grammar, c.error);
    if (c.error) {
      std::size_t seen = firstBadChunk.load();
      while (i < seen && !firstBadChunk.compare_exchange_weak(seen, i)) {
      }
    }
    progress.report(static_cast<double>(bytesDone += c.text.size()) / static_cast<double>(piece.size()));
  });

  // The first error in file order, its line counted from the start of the file.
  std::uint64_t line = firstLine;
  for (const Chunk& c : chunks) {
    if (c.error) throw InputError(path, line + c.error->line, c.error->column, c.error->message);
    line += c.newlines;
  }

  // Close the gaps that blank and comment lines left between the chunks' values.
  std::uint64_t count = 0;
  for (const Chunk& c : chunks) {
    if (c.firstSlot != count) std::memmove(samples.data() + count, samples.data() + c.firstSlot, c.values * sizeof(double));
    count += c.values;
  }
  samples.resize(count);
  if (count < slots - slots / 8) samples.shrink_to_fit();
  return samples;
}

SampleVector parseTextSignal(std::string_view text, const std::string& path, const TextReadOptions& options,
                             const Progress& progress) {
  const TextBody layout = locateTextBody(text, options);
  SampleVector samples =
      parseTextPiece(layout.body, layout, layout.firstLine, path, options.chunkBytes, progress, options.memory);
  if (samples.empty()) {
    throw InputError(path, text.empty() ? "the file is empty: expected one number per line"
                                        : "no numbers found: expected one number per line");
  }
  return samples;
}

}  // namespace siglab
