#pragma once
// Median filter: out[i] = the median of the W samples x(i - W/2) .. x(i + W/2), where x(k) is the
// sample boundaryIndex(k, n, mode) names and the zero mode's outside samples are 0.0; the same
// as scipy.ndimage.median_filter(x, W, mode=...) with "zero" = "constant" and cval 0.
//
// NaN: scipy selects with a quickselect comparing by '<', so its result with NaN in a window
// depends on the order of the samples (ndimage and signal.medfilt even disagree). SigLab orders
// values totally, NaN above +inf and -0.0 below +0.0 (ordered_key.hpp): a window's median is NaN
// exactly when at most W/2 of its samples are numbers, and every engine gives the same bits.
#include <cstddef>
#include <span>

#include "siglab/boundary.hpp"
#include "siglab/progress.hpp"

namespace siglab {

// Throws std::invalid_argument unless `window` is a positive odd number.
void validateMedianWindow(std::size_t window);

// The reference: each output selects its window's middle sample (nth_element on a copy).
// `in` and `out` have the same size and do not overlap; throws std::invalid_argument otherwise.
// Both forms report progress and look at Cancel (throwing Cancelled) every millisecond or so.
void medianFilterReference(std::span<const double> in, std::size_t window, BoundaryMode mode, std::span<double> out,
                           const Progress& progress = {});
void medianFilterReference(std::span<const float> in, std::size_t window, BoundaryMode mode, std::span<float> out,
                           const Progress& progress = {});

// Every core, each on its own run of outputs with a sliding sorted window; bit-identical to the
// reference.
void medianFilterParallel(std::span<const double> in, std::size_t window, BoundaryMode mode, std::span<double> out,
                          const Progress& progress = {});
void medianFilterParallel(std::span<const float> in, std::size_t window, BoundaryMode mode, std::span<float> out,
                          const Progress& progress = {});

// The reference's output i alone (for --verify: one window, no pass over the signal).
double medianOutputAt(std::span<const double> in, std::size_t window, BoundaryMode mode, std::size_t i);
float medianOutputAt(std::span<const float> in, std::size_t window, BoundaryMode mode, std::size_t i);

}  // namespace siglab
