#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/butterworth.hpp"

namespace siglab {

// What a float32 signal is summed in: float32 throughout (taps rounded to float), or float64
// (products and sums in double, the result rounded once to float). float64 signals ignore it.
enum class Accumulator : std::uint8_t { SampleType, Float64 };

// What a filter computes. Each kind reads its own fields of FilterSpec; an engine answers for the
// kinds it knows in whyNot() and refuses the others by name, so adding a kind (median,
// Savitzky-Golay, IIR) touches only the engines that compute it.
enum class FilterKind : std::uint8_t {
  Correlation,    // out[i] = sum over j = 0..W-1, in this order, of taps[j] * x(i - W/2 + j)
  Median,         // out[i] = the median of x(i - W/2) .. x(i + W/2) (median_filter.hpp)
  SavitzkyGolay,  // a Correlation with savgolCoefficients as taps, then scipy's interp edges if asked
  Sos,            // second-order sections: sosfilt from zero state, or sosfiltfilt (zero phase)
};

// Savitzky-Golay's parameters (savgol.hpp's SavgolSpec); its taps live in FilterSpec::taps.
struct SavgolParameters {
  std::size_t order = 2;
  std::size_t deriv = 0;
  bool interp = true;  // scipy.signal.savgol_filter's default edges; false: FilterSpec::mode
};

// The sections engines run, and Butterworth's design (as asked, for reports). Any other source of
// sections (cheby1, ellip, a file for sosfilt) says what it is in designText instead.
struct SosParameters {
  ButterworthSpec design;
  Sections sections;
  bool zeroPhase = false;  // scipy.signal.sosfiltfilt; false: sosfilt from zero state
  std::string designText;  // "cheby1 order 4 lowpass 0.2 x Nyquist rp 1 dB"; empty: Butterworth's design
};

// One filter. For a Correlation, x(k) is the sample boundaryIndex(k) names (and nothing for a
// skipped one); W = taps.size() is odd. Each kind reads only its own fields (filter_kinds.hpp
// builds them).
struct FilterSpec {
  std::vector<double> taps;  // Correlation, SavitzkyGolay
  BoundaryMode mode = BoundaryMode::Zero;
  Accumulator accumulator = Accumulator::SampleType;
  FilterKind kind = FilterKind::Correlation;
  std::size_t medianWindow = 0;  // Median
  SavgolParameters savgol{};     // SavitzkyGolay
  SosParameters sos{};           // Sos

  // The window: W for a Correlation, a Savitzky-Golay or a median; 0 for sections (no window).
  std::size_t window() const { return kind == FilterKind::Median ? medianWindow : kind == FilterKind::Sos ? 0 : taps.size(); }
  std::size_t radius() const { return window() / 2; }
  bool isUniform() const;  // a Correlation or Savitzky-Golay with every tap equal (a mean filter)
  bool isCorrelation() const { return kind == FilterKind::Correlation || kind == FilterKind::SavitzkyGolay; }
};

inline constexpr std::size_t kDefaultWindow = 5;

// The original program's mean filter: W taps of 1/W each. Throws std::invalid_argument unless W
// is odd.
FilterSpec makeMeanFilter(std::size_t window, BoundaryMode mode = BoundaryMode::Zero);

// Throws std::invalid_argument when the spec cannot be run (even or empty window, non-finite taps,
// a Savitzky-Golay order not below W, sections missing or unstable).
void validate(const FilterSpec& spec);

std::string_view toString(BoundaryMode mode);
std::string_view toString(FilterKind kind);  // "correlation", "median", "savgol", "butterworth"
// The spec's kind in words for messages and reports: toString(kind), but "sos" for sections
// of any design other than Butterworth's (cheby1, a file for sosfilt).
std::string_view kindName(const FilterSpec& spec);

// For engines that compute correlations only: empty for a Correlation or a Savitzky-Golay (its
// interior is one; its interp edges are the pipeline's, finishEdges()), else "<engine> computes
// correlations only, not a <kind>".
std::string whyNotCorrelation(const FilterSpec& spec, std::string_view engine);
std::optional<BoundaryMode> parseBoundaryMode(std::string_view text);

}  // namespace siglab
