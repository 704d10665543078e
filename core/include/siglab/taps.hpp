#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "siglab/filter_spec.hpp"

namespace siglab {

// Gaussian taps as scipy.ndimage.gaussian_filter1d makes them: exp(-k^2 / (2 sigma^2)) for
// k = -r..r, normalised to sum 1, with r = floor(4 sigma + 0.5) unless `window` (odd) is given.
// Throws std::invalid_argument for a sigma that is not positive and finite, an even window or one
// over kMaxGaussianWindow (work_bounds.hpp: every tap is built), NotEnoughMemory when they do not fit.
// Every front-end (CLI, GUI, Python) builds its Gaussian here, so all refuse the same sigmas.
FilterSpec makeGaussianFilter(double sigma, BoundaryMode mode = BoundaryMode::Zero, std::size_t window = 0);

// The window makeGaussianFilter builds for `sigma` and `window` (0: gaussianWindow's), checked as it
// checks them before building anything.
std::size_t checkedGaussianWindow(double sigma, std::size_t window);

// makeGaussianFilter's filter as cropToSignal (work_bounds.hpp) leaves it for a signal of `samples`,
// bit for bit, without ever holding the taps it drops: O(W) time (every tap is in the normalising
// sum), O(min(W, 2N - 1)) memory in zero mode. Other modes keep every tap, within checkWindowFits.
FilterSpec gaussianFilterForSignal(double sigma, BoundaryMode mode, std::size_t window, std::size_t samples);

// The window makeGaussianFilter gives `sigma` by default: 2 floor(4 sigma + 0.5) + 1. Throws
// std::invalid_argument, with the count it would need, past kMaxGaussianWindow (sigma 33554432).
std::size_t gaussianWindow(double sigma);

// Custom taps from a file in the text format (one number a line, used as given, not
// normalised). Throws InputError naming the file when it cannot be read or holds an even count.
std::vector<double> readTaps(const std::string& path);

}  // namespace siglab
