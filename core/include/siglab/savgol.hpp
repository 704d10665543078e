#pragma once
// Savitzky-Golay: each output is the deriv-th derivative, at the window's centre, of the
// polynomial of degree `order` fitted by least squares to the W samples around it. The fit is
// linear in the samples, so the interior is a correlation with fixed taps (any correlation engine
// runs it); scipy's "interp" edges fit one polynomial to the first and to the last W samples.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/progress.hpp"

namespace siglab {

struct SavgolSpec {
  std::size_t window = 5;  // W: odd, at least 1
  std::size_t order = 2;   // polynomial degree, below W
  std::size_t deriv = 0;   // derivative order, at most `order`
  double delta = 1.0;      // sample spacing, for derivatives
  bool interp = true;      // scipy.signal.savgol_filter's default edges; false: `mode`
  BoundaryMode mode = BoundaryMode::Mirror;
};

// The highest polynomial degree fitted: past it the scaled Vandermonde matrix is so ill-conditioned
// that a higher degree fits no better than rounding allows (and its coefficient work grows as its square).
inline constexpr std::size_t kMaxSavgolOrder = 32;
// The coefficient work a filter may take (savgolCoefficientWork): about 0.2 s of one core (20-30 ns
// a unit measured), checked before any of it is done (the GUI as parameters are typed, the CLI
// before reading the signal).
inline constexpr std::uint64_t kMaxSavgolWork = std::uint64_t{1} << 23;

// The filter's coefficient work, in units of W (ORDER + 1)^2 (one QR of the window's powers): one
// for the interior, and with interp edges one more for each edge (scipy's fit of the edge's samples).
std::uint64_t savgolCoefficientWork(const SavgolSpec& spec);

// Throws std::invalid_argument naming the parameter and its allowed range, or the work and its
// bound (ORDER up to kMaxSavgolOrder; savgolCoefficientWork up to kMaxSavgolWork).
void validate(const SavgolSpec& spec);

// scipy.signal.savgol_coeffs(W, order, deriv, delta, pos=pos, use='dot'): the estimate at window
// position `pos` (0..W-1) is sum_j c[j] * x[j]. Computed by a QR factorisation in long double of
// the scaled Vandermonde matrix (minimum-norm least squares, as lstsq).
std::vector<double> savgolCoefficients(const SavgolSpec& spec, std::size_t pos);

// For tests only: when set, called first in every savgolCoefficients, on the thread computing them
// (the GUI's tests check that it is never the main thread). Null otherwise.
extern std::atomic<void (*)()> savgolCoefficientsObserverForTests;

// The interior as a correlation (FilterSpec's orientation: out[i] = sum_j taps[j] x[i - W/2 + j]):
// the centred coefficients, spec.mode (zero where spec.interp: the edges are replaced), and
// accumulated in float64 as scipy does for float32 data.
FilterSpec savgolFilterSpec(const SavgolSpec& spec);

// scipy's interp edges: overwrites out[0, W/2) and out[n - W/2, n) with the fits to the first and
// last W samples. Needs n >= W (throws std::invalid_argument otherwise).
// Looks at `cancel` before each pair of edge outputs (throws Cancelled).
void savgolInterpEdges(std::span<const double> in, const SavgolSpec& spec, std::span<double> out,
                       const Progress& cancel = {});
void savgolInterpEdges(std::span<const float> in, const SavgolSpec& spec, std::span<float> out,
                       const Progress& cancel = {});

// The whole filter on the CPU (cpu-parallel for the interior), as scipy.signal.savgol_filter.
void savgolFilter(std::span<const double> in, const SavgolSpec& spec, std::span<double> out);
void savgolFilter(std::span<const float> in, const SavgolSpec& spec, std::span<float> out);

}  // namespace siglab
