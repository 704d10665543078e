#include "siglab/taps.hpp"

#include <cmath>
#include <stdexcept>

#include "siglab/errors.hpp"
#include "siglab/io/text_format.hpp"

namespace siglab {

std::size_t gaussianWindow(double sigma) { return 2 * static_cast<std::size_t>(4.0 * sigma + 0.5) + 1; }

FilterSpec makeGaussianFilter(double sigma, BoundaryMode mode, std::size_t window) {
  if (!(sigma > 0.0) || !std::isfinite(sigma)) {
    throw std::invalid_argument("Gaussian sigma must be a positive number, got " + std::to_string(sigma));
  }
  if (window == 0) window = gaussianWindow(sigma);
  if (window % 2 == 0) throw std::invalid_argument("window must be odd, got " + std::to_string(window));
  const auto radius = static_cast<double>(window / 2);
  std::vector<double> taps(window);
  double total = 0.0;
  for (std::size_t j = 0; j < window; ++j) {
    const double k = static_cast<double>(j) - radius;
    taps[j] = std::exp(-0.5 * k * k / (sigma * sigma));
    total += taps[j];
  }
  for (double& t : taps) t /= total;
  return FilterSpec{std::move(taps), mode};
}

std::vector<double> readTaps(const std::string& path) {
  std::vector<double> taps = readTextSignal(path);
  if (taps.size() % 2 == 0) {
    throw InputError(path, "expected an odd number of taps (one a line), found " + std::to_string(taps.size()));
  }
  return taps;
}

}  // namespace siglab
