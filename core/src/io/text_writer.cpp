#include <charconv>

#include "parallel_work.hpp"
#include "seed_number.hpp"
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

void appendSeedFormat(std::span<const double> values, std::string& out) { appendLines<writeSeedNumber>(values, out); }

void appendShortestFormat(std::span<const double> values, std::string& out) {
  appendLines<writeShortestNumber>(values, out);
}

std::vector<std::string> formatTextPieces(std::span<const double> values, TextStyle style, const Progress& progress) {
  constexpr std::size_t kValuesPerPiece = 1 << 16;
  std::vector<std::string> pieces((values.size() + kValuesPerPiece - 1) / kValuesPerPiece);
  std::atomic<std::size_t> piecesDone{0};
  runParallel(pieces.size(), [&](std::size_t i) {
    progress.throwIfCancelled();
    const auto slice = values.subspan(i * kValuesPerPiece, std::min(kValuesPerPiece, values.size() - i * kValuesPerPiece));
    if (style == TextStyle::seed) {
      appendSeedFormat(slice, pieces[i]);
    } else {
      appendShortestFormat(slice, pieces[i]);
    }
    progress.report(static_cast<double>(++piecesDone) / static_cast<double>(pieces.size()));
  });
  return pieces;
}

}  // namespace siglab
