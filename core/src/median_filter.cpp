#include "siglab/median_filter.hpp"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel_range.hpp"
#include "siglab/ordered_key.hpp"
#include "siglab/work_progress.hpp"
#include "sorted_window.hpp"

namespace siglab {
namespace {

template <typename T>
void checkArguments(std::span<const T> in, std::size_t window, std::span<T> out) {
  validateMedianWindow(window);
  if (in.size() != out.size()) throw std::invalid_argument("median filter: input and output sizes differ");
  const T* inEnd = in.data() + in.size();
  const T* outBegin = out.data();
  if (!in.empty() && outBegin < inEnd && in.data() < outBegin + out.size()) {
    throw std::invalid_argument("median filter: the output must not overlap the input");
  }
}

// The key of position k of the extended signal (positions outside [0, n) through the mode).
template <typename T>
OrderedKey<T> keyAt(std::span<const T> in, std::int64_t k, BoundaryMode mode) {
  const std::int64_t index = boundaryIndex(k, static_cast<std::int64_t>(in.size()), mode);
  return toOrderedKey(index == kSkipSample ? T(0) : in[static_cast<std::size_t>(index)]);
}

template <typename T>
T medianAt(std::span<const T> in, std::size_t window, BoundaryMode mode, std::size_t i) {
  validateMedianWindow(window);
  const auto r = static_cast<std::int64_t>(window / 2);
  std::vector<OrderedKey<T>> keys(window);
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(window); ++j) {
    keys[static_cast<std::size_t>(j)] = keyAt(in, static_cast<std::int64_t>(i) - r + j, mode);
  }
  std::nth_element(keys.begin(), keys.begin() + r, keys.end());
  return fromOrderedKey<T>(keys[static_cast<std::size_t>(r)]);
}

// Both forms look at Cancel and report progress every outputsPerCancelCheck(W) outputs: an output
// costs O(W) (a selection, or a sorted window's move), so that is about a millisecond of work.
template <typename T>
void referenceAs(std::span<const T> in, std::size_t window, BoundaryMode mode, std::span<T> out,
                 const Progress& progress) {
  checkArguments(in, window, out);
  const auto n = static_cast<std::int64_t>(in.size());
  const auto r = static_cast<std::int64_t>(window / 2);
  const std::int64_t stretch = detail::outputsPerCancelCheck(window);
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
  std::vector<OrderedKey<T>> keys(window);
  for (std::int64_t begin = 0; begin < n; begin += stretch) {
    work.throwIfCancelled();
    const std::int64_t end = std::min(n, begin + stretch);
    for (std::int64_t i = begin; i < end; ++i) {
      for (std::int64_t j = 0; j < static_cast<std::int64_t>(window); ++j) keys[j] = keyAt(in, i - r + j, mode);
      std::nth_element(keys.begin(), keys.begin() + r, keys.end());
      out[static_cast<std::size_t>(i)] = fromOrderedKey<T>(keys[r]);
    }
    work.add(static_cast<std::uint64_t>(end - begin));
  }
}

// The middle of W keys: a sorting network of min and max (no branch to mispredict on noise, unlike
// the sorted window's moves); the same key as any selection, so the same bits.
template <std::size_t W, typename Key>
Key middleOf(const Key* keys) {
  Key a[W];
  std::copy_n(keys, W, a);
  for (std::size_t pass = 0; pass < W; ++pass) {
    for (std::size_t j = pass % 2; j + 1 < W; j += 2) {  // odd-even transposition: W passes sort W keys
      const Key low = std::min(a[j], a[j + 1]);
      a[j + 1] = std::max(a[j], a[j + 1]);
      a[j] = low;
    }
  }
  return a[W / 2];
}

template <std::size_t W, typename T>
void middlesOver(const std::vector<OrderedKey<T>>& keys, std::span<T> out, std::int64_t from, std::int64_t to,
                 std::int64_t begin) {
  for (std::int64_t i = from; i < to; ++i) {
    out[static_cast<std::size_t>(i)] = fromOrderedKey<T>(middleOf<W>(keys.data() + (i - begin)));
  }
}

// Outputs [begin, end): the window slides over the keys of positions [begin - r, end + r) (up to 7
// keys: each output from a sorting network instead). Returns early once cancelled (the caller
// throws, outside the parallel loop).
template <typename T>
void slideOver(std::span<const T> in, std::size_t window, BoundaryMode mode, std::span<T> out, std::int64_t begin,
               std::int64_t end, WorkProgress& work) {
  const auto r = static_cast<std::int64_t>(window / 2);
  const std::int64_t stretch = detail::outputsPerCancelCheck(window);
  std::vector<OrderedKey<T>> keys(static_cast<std::size_t>(end - begin) + window - 1);
  for (std::size_t j = 0; j < keys.size(); ++j) keys[j] = keyAt(in, begin - r + static_cast<std::int64_t>(j), mode);
  if (window == 3 || window == 5 || window == 7) {
    for (std::int64_t from = begin; from < end; from += stretch) {
      if (work.cancelled()) return;
      const std::int64_t to = std::min(end, from + stretch);
      if (window == 3) middlesOver<3>(keys, out, from, to, begin);
      if (window == 5) middlesOver<5>(keys, out, from, to, begin);
      if (window == 7) middlesOver<7>(keys, out, from, to, begin);
      work.add(static_cast<std::uint64_t>(to - from));
    }
    return;
  }
  detail::SortedWindow<OrderedKey<T>> sorted(std::span<const OrderedKey<T>>(keys).first(window));
  for (std::int64_t from = begin; from < end; from += stretch) {
    if (work.cancelled()) return;
    const std::int64_t to = std::min(end, from + stretch);
    for (std::int64_t i = from; i < to; ++i) {
      if (i > begin) {
        const auto oldest = static_cast<std::size_t>(i - 1 - begin);
        sorted.replace(keys[oldest], keys[oldest + window]);
      }
      out[static_cast<std::size_t>(i)] = fromOrderedKey<T>(sorted.at(static_cast<std::size_t>(r)));
    }
    work.add(static_cast<std::uint64_t>(to - from));
  }
}

template <typename T>
void parallelAs(std::span<const T> in, std::size_t window, BoundaryMode mode, std::span<T> out,
                const Progress& progress) {
  checkArguments(in, window, out);
  const auto n = static_cast<std::int64_t>(in.size());
  progress.throwIfCancelled();
  if (n == 0) return;
  // Each piece sorts one window to start: keep pieces long against the window.
  const auto pieceSize = std::max<std::int64_t>(detail::kPieceSize, 16 * static_cast<std::int64_t>(window));
  const std::int64_t pieces = detail::piecesOf(n, pieceSize);
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
#pragma omp parallel for schedule(dynamic, 1) if (pieces > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    if (work.cancelled()) continue;  // no break out of an OpenMP loop: the rest are skipped
    const detail::IndexRange piece = detail::chunkOf(n, pieces, p);
    if (piece.begin < piece.end) slideOver(in, window, mode, out, piece.begin, piece.end, work);
  }
  work.throwIfCancelled();
}

}  // namespace

void validateMedianWindow(std::size_t window) {
  if (window == 0 || window % 2 == 0) {
    throw std::invalid_argument("median window must be a positive odd number of samples (1, 3, 5, ...), got " +
                                std::to_string(window));
  }
}

void medianFilterReference(std::span<const double> in, std::size_t window, BoundaryMode mode, std::span<double> out,
                           const Progress& progress) {
  referenceAs(in, window, mode, out, progress);
}
void medianFilterReference(std::span<const float> in, std::size_t window, BoundaryMode mode, std::span<float> out,
                           const Progress& progress) {
  referenceAs(in, window, mode, out, progress);
}
double medianOutputAt(std::span<const double> in, std::size_t window, BoundaryMode mode, std::size_t i) {
  return medianAt(in, window, mode, i);
}
float medianOutputAt(std::span<const float> in, std::size_t window, BoundaryMode mode, std::size_t i) {
  return medianAt(in, window, mode, i);
}
void medianFilterParallel(std::span<const double> in, std::size_t window, BoundaryMode mode, std::span<double> out,
                          const Progress& progress) {
  parallelAs(in, window, mode, out, progress);
}
void medianFilterParallel(std::span<const float> in, std::size_t window, BoundaryMode mode, std::span<float> out,
                          const Progress& progress) {
  parallelAs(in, window, mode, out, progress);
}

}  // namespace siglab
