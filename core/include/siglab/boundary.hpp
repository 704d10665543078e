#pragma once
#include <cstdint>

#include "siglab/host_device.hpp"

namespace siglab {

// How samples outside [0, n) are taken, with scipy.ndimage.correlate1d's meanings
// ("zero" is its "constant" with cval = 0). For n = 4 (a b c d):
//   zero     0 0 0 | a b c d | 0 0 0
//   reflect  c b a | a b c d | d c b   (half-sample symmetric, period 2n)
//   mirror   d c b | a b c d | c b a   (whole-sample symmetric, period 2n - 2)
//   nearest  a a a | a b c d | d d d
//   wrap     b c d | a b c d | a b c
enum class BoundaryMode : std::uint8_t { Zero, Reflect, Mirror, Nearest, Wrap };

inline constexpr std::int64_t kSkipSample = -1;

namespace detail {
SIGLAB_HD std::int64_t positiveModulo(std::int64_t k, std::int64_t period) {
  const std::int64_t r = k % period;
  return r < 0 ? r + period : r;
}
}  // namespace detail

// The index in [0, n) that position k reads, or kSkipSample where the zero mode contributes
// nothing. n must be positive.
SIGLAB_HD std::int64_t boundaryIndex(std::int64_t k, std::int64_t n, BoundaryMode mode) {
  if (k >= 0 && k < n) return k;
  switch (mode) {
    case BoundaryMode::Zero:
      return kSkipSample;
    case BoundaryMode::Nearest:
      return k < 0 ? 0 : n - 1;
    case BoundaryMode::Wrap:
      return detail::positiveModulo(k, n);
    case BoundaryMode::Reflect: {
      const std::int64_t m = detail::positiveModulo(k, 2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case BoundaryMode::Mirror: {
      if (n == 1) return 0;
      const std::int64_t m = detail::positiveModulo(k, 2 * n - 2);
      return m < n ? m : 2 * n - 2 - m;
    }
  }
  return kSkipSample;
}

}  // namespace siglab
