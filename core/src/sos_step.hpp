#pragma once
// One sample through the cascade: scipy's _sosfilt loop body (direct form II transposed, a0 = 1).
#include <cstddef>

#include "siglab/butterworth.hpp"

namespace siglab::detail {

[[gnu::always_inline]] inline double sosStep(const Section* s, std::size_t count, double* z, double x) {
  for (std::size_t k = 0; k < count; ++k) {
    const double y = s[k][0] * x + z[2 * k];
    z[2 * k] = s[k][1] * x - s[k][4] * y + z[2 * k + 1];
    z[2 * k + 1] = s[k][2] * x - s[k][5] * y;
    x = y;
  }
  return x;
}

// `count` samples x[0], x[stride], ... into y at the same positions (y may be x).
inline void sosRange(const Section* s, std::size_t sections, double* z, const double* x, double* y,
                     std::ptrdiff_t stride, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::ptrdiff_t at = static_cast<std::ptrdiff_t>(i) * stride;
    y[at] = sosStep(s, sections, z, x[at]);
  }
}

}  // namespace siglab::detail
