#pragma once
#include <cstdint>
#include <span>

namespace siglab {

/// How a result agrees with the reference, element by element.
struct Agreement {
  double maxAbsDiff = 0.0;
  std::uint64_t firstMismatch = 0;   // index of the first element whose bits differ
  std::uint64_t mismatches = 0;      // elements whose bits differ
  bool bitIdentical() const { return mismatches == 0; }
};

// Compares a result with the reference element by element, bit for bit, except that any NaN
// matches any NaN (engines may differ in a NaN's sign and payload, as the CPU's inf - inf is -nan);
// a NaN where the reference has none counts as an infinite difference. Sizes must match (std::invalid_argument otherwise).
Agreement compareResults(std::span<const double> reference, std::span<const double> candidate);

// Largest |x| over finite values; 0 for an empty span.
double maxAbs(std::span<const double> values);

}  // namespace siglab
