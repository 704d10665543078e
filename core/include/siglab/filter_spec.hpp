#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/boundary.hpp"

namespace siglab {

// What a float32 signal is summed in: float32 throughout (taps rounded to float), or float64
// (products and sums in double, the result rounded once to float). float64 signals ignore it.
enum class Accumulator : std::uint8_t { SampleType, Float64 };

// What a filter computes. Each kind reads its own fields of FilterSpec; an engine answers for the
// kinds it knows in whyNot() and refuses the others by name, so adding a kind (median,
// Savitzky-Golay, IIR) touches only the engines that compute it.
enum class FilterKind : std::uint8_t {
  Correlation,  // out[i] = sum over j = 0..W-1, in this order, of taps[j] * x(i - W/2 + j)
};

// One filter. For a Correlation, x(k) is the sample boundaryIndex(k) names (and nothing for a
// skipped one); W = taps.size() is odd.
struct FilterSpec {
  std::vector<double> taps;  // Correlation
  BoundaryMode mode = BoundaryMode::Zero;
  Accumulator accumulator = Accumulator::SampleType;
  FilterKind kind = FilterKind::Correlation;

  std::size_t window() const { return taps.size(); }
  std::size_t radius() const { return taps.size() / 2; }
  bool isUniform() const;  // every tap equal: a mean filter
};

inline constexpr std::size_t kDefaultWindow = 5;

// The seed's mean filter: W taps of 1/W each. Throws std::invalid_argument unless W is odd.
FilterSpec makeMeanFilter(std::size_t window, BoundaryMode mode = BoundaryMode::Zero);

// Throws std::invalid_argument when the spec cannot be run (even or empty window, non-finite taps).
void validate(const FilterSpec& spec);

std::string_view toString(BoundaryMode mode);
std::string_view toString(FilterKind kind);  // "correlation", ...

// For engines that compute correlations only: empty for a Correlation, else "<engine> computes
// correlations only, not a <kind>".
std::string whyNotCorrelation(const FilterSpec& spec, std::string_view engine);
std::optional<BoundaryMode> parseBoundaryMode(std::string_view text);

}  // namespace siglab
