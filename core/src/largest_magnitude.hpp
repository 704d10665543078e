#pragma once
// The largest finite |sample| of a signal, for a verification's tolerance: one O(N) read of the
// whole input, so it runs on every core (on a GPU machine one core read 80 MB in about 20 ms, as
// long as the engine's whole run), looking at Cancel between rounds of a piece per thread (one
// thread in a forked child: usable_threads.hpp).
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#include "siglab/progress.hpp"
#include "usable_threads.hpp"

namespace siglab::detail {

struct Magnitude {
  double largest = 0.0;  // of the finite samples
  bool finite = true;    // no NaN or infinity
};

template <typename Sample>
Magnitude largestMagnitude(std::span<const Sample> in, const Progress& progress) {
  constexpr std::size_t kPiece = std::size_t{1} << 18;
  const std::size_t threads = usableThreads();
  Magnitude m;
  for (std::size_t begin = 0; begin < in.size(); begin += kPiece * threads) {
    progress.throwIfCancelled();
    const std::span<const Sample> round = in.subspan(begin, std::min(in.size() - begin, kPiece * threads));
    const auto pieces = static_cast<std::int64_t>((round.size() + kPiece - 1) / kPiece);
    double largest = m.largest;
    int finite = m.finite ? 1 : 0;
#pragma omp parallel for reduction(max : largest) reduction(min : finite) if (pieces > 1)
    for (std::int64_t p = 0; p < pieces; ++p) {
      const std::size_t from = static_cast<std::size_t>(p) * kPiece, to = std::min(round.size(), from + kPiece);
      for (std::size_t i = from; i < to; ++i) {
        const double size = std::fabs(static_cast<double>(round[i]));
        if (size <= std::numeric_limits<double>::max()) {
          largest = std::max(largest, size);
        } else {
          finite = 0;
        }
      }
    }
    m.largest = largest;
    m.finite = finite != 0;
  }
  return m;
}

}  // namespace siglab::detail
