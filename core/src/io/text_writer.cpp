#include <algorithm>
#include <charconv>

#include "parallel_work.hpp"
#include "seed_number.hpp"
#include "csv_rows.hpp"
#include "siglab/io/text_format.hpp"

namespace siglab {
namespace {

char* writeShortestNumber(char* out, double v) { return std::to_chars(out, out + kMaxSeedNumberChars, v).ptr; }

// Appends one line per value, writing straight into `out` (grown as needed, trimmed at the end).
template <char* (*writeNumber)(char*, double)>
void appendLines(std::span<const double> values, std::string& out) {
  std::size_t used = out.size();
  out.resize(used + values.size() * 20 + kMaxSeedNumberChars + 1);  // the seed's lines are ~20 bytes
  for (double v : values) {
    if (out.size() - used < kMaxSeedNumberChars + 1) out.resize(out.size() * 2);
    char* end = writeNumber(out.data() + used, v);
    *end++ = '\n';
    used = static_cast<std::size_t>(end - out.data());
  }
  out.resize(used);
}

}  // namespace

void appendCsvRows(std::span<const std::span<const double>> channels, std::size_t first, std::size_t count,
                   TextStyle style, std::string& out) {
  char* (*const writeNumber)(char*, double) = style == TextStyle::seed ? writeSeedNumber : writeShortestNumber;
  const std::size_t rowLimit = channels.size() * (kMaxSeedNumberChars + 1);
  std::size_t used = out.size();
  out.resize(used + count * channels.size() * 20 + rowLimit);
  for (std::size_t f = first; f < first + count; ++f) {
    if (out.size() - used < rowLimit) out.resize(out.size() * 2 + rowLimit);
    char* end = out.data() + used;
    for (std::size_t c = 0; c < channels.size(); ++c) {
      end = writeNumber(end, channels[c][f]);
      *end++ = c + 1 < channels.size() ? ',' : '\n';
    }
    used = static_cast<std::size_t>(end - out.data());
  }
  out.resize(used);
}

void appendSeedFormat(std::span<const double> values, std::string& out) { appendLines<writeSeedNumber>(values, out); }

void appendShortestFormat(std::span<const double> values, std::string& out) {
  appendLines<writeShortestNumber>(values, out);
}

void appendTextLines(AtomicFileWriter& file, std::span<const double> values, TextStyle style, const Progress& progress) {
  constexpr std::size_t kValuesPerPiece = 1 << 15;  // ~650 KB of text
  const std::size_t count = (values.size() + kValuesPerPiece - 1) / kValuesPerPiece;
  produceInParallelConsumeInOrder(
      count,
      [&](std::size_t i, std::string& text) {
        const auto slice = values.subspan(i * kValuesPerPiece, std::min(kValuesPerPiece, values.size() - i * kValuesPerPiece));
        text.clear();
        if (style == TextStyle::seed) {
          appendSeedFormat(slice, text);
        } else {
          appendShortestFormat(slice, text);
        }
      },
      [&](std::size_t i, const std::string& text) {
        progress.throwIfCancelled();
        file.append(text);
        progress.report(static_cast<double>(i + 1) / static_cast<double>(count));
      });
  progress.throwIfCancelled();
}

void writeTextFile(const std::string& path, std::span<const double> values, TextStyle style, Durability durability,
                   const Progress& progress) {
  AtomicFileWriter file(path, durability);
  appendTextLines(file, values, style, progress);
  file.commit();
}

}  // namespace siglab
