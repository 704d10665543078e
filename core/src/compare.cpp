#include "siglab/compare.hpp"

#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace siglab {

Agreement compareResults(std::span<const double> reference, std::span<const double> candidate) {
  if (reference.size() != candidate.size()) throw std::invalid_argument("compareResults: sizes differ");
  Agreement agreement;
  for (std::size_t i = 0; i < reference.size(); ++i) {
    const double a = reference[i];
    const double b = candidate[i];
    if (std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b)) continue;
    if (std::isnan(a) && std::isnan(b)) continue;  // a NaN's sign and payload are no part of the result
    if (agreement.mismatches++ == 0) agreement.firstMismatch = i;
    const double diff = std::isnan(a) != std::isnan(b) ? std::numeric_limits<double>::infinity() : std::fabs(a - b);
    if (!(diff <= agreement.maxAbsDiff)) agreement.maxAbsDiff = std::isnan(diff) ? 0.0 : diff;
  }
  return agreement;
}

double maxAbs(std::span<const double> values) {
  double m = 0.0;
  for (double v : values) {
    if (std::isfinite(v) && std::fabs(v) > m) m = std::fabs(v);
  }
  return m;
}

}  // namespace siglab
