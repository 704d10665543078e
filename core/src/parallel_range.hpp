#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace siglab::detail {

struct IndexRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

// Part `part` of `parts` near-equal pieces of [0, n), cut at multiples of `align` elements so that
// two threads never write the same cache line.
inline IndexRange chunkOf(std::int64_t n, std::int64_t parts, std::int64_t part, std::int64_t align = 16) {
  const std::int64_t blocks = (n + align - 1) / align;
  const auto cut = [&](std::int64_t p) { return std::min(n, blocks * p / parts * align); };
  return {cut(part), cut(part + 1)};
}

// How many pieces of about `pieceSize` elements [0, n) splits into (at least one).
inline std::int64_t piecesOf(std::int64_t n, std::int64_t pieceSize) {
  return std::max<std::int64_t>(1, (n + pieceSize - 1) / pieceSize);
}

// Work is cut into pieces of this many outputs and handed to threads as they become free, so a
// core that other programs are also using does not hold up the rest.
inline constexpr std::int64_t kPieceSize = std::int64_t{1} << 16;

// Multiply-adds between two looks at the cancellation flag: about a millisecond on one core, so
// Cancel stops a run within 100 ms even on a busy machine or in a sanitizer build.
inline constexpr std::int64_t kMultiplyAddsPerCancelCheck = std::int64_t{1} << 20;

// Outputs of a `window`-tap filter between two looks at the cancellation flag (at most
// kPieceSize, at least one cache line of outputs).
inline std::int64_t outputsPerCancelCheck(std::size_t window) {
  const std::int64_t outputs = kMultiplyAddsPerCancelCheck / std::max<std::int64_t>(1, static_cast<std::int64_t>(window));
  return std::clamp<std::int64_t>(outputs, 16, kPieceSize);
}

}  // namespace siglab::detail
