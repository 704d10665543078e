#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "siglab/filter_spec.hpp"

namespace siglab {

// Gaussian taps as scipy.ndimage.gaussian_filter1d makes them: exp(-k^2 / (2 sigma^2)) for
// k = -r..r, normalised to sum 1, with r = floor(4 sigma + 0.5) unless `window` (odd) is given.
// Throws std::invalid_argument for a sigma that is not positive and finite, or an even window.
FilterSpec makeGaussianFilter(double sigma, BoundaryMode mode = BoundaryMode::Zero, std::size_t window = 0);

// The window makeGaussianFilter gives `sigma` by default: 2 floor(4 sigma + 0.5) + 1.
std::size_t gaussianWindow(double sigma);

// Custom taps from a file in the seed text format (one number per line, used as given, not
// normalised). Throws InputError naming the file when it cannot be read or holds an even count.
std::vector<double> readTaps(const std::string& path);

}  // namespace siglab
