#include "siglab/taps.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "siglab/errors.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

// A tap count in full while it is exact in a double (8000000001), else in short (8e+300).
std::string countText(double count) {
  char text[32];
  std::snprintf(text, sizeof text, count < 9e15 ? "%.0f" : "%g", count);
  return text;
}

// 2 floor(4 sigma + 0.5) + 1 in double: exact while it is below 2^53, and never converted to an
// integer it cannot fit (sigma 1e19 made a size_t overflow into a 1-tap identity filter).
double defaultWindowOf(double sigma) { return 2.0 * std::floor(4.0 * sigma + 0.5) + 1.0; }

void checkSigma(double sigma) {
  if (!(sigma > 0.0) || !std::isfinite(sigma)) {
    throw std::invalid_argument("Gaussian sigma must be a positive number, got " + shortNumber(sigma));
  }
}

// Taps [keepFrom, keepFrom + keepCount) of the Gaussian window of `window` taps, normalised over all
// of them: the sum runs over every tap in order, whatever is kept, so the kept taps are the same
// bits as those of the whole window.
std::vector<double> gaussianTaps(double sigma, std::size_t window, std::size_t keepFrom, std::size_t keepCount) {
  requireMemory(keepCount, 2 * sizeof(double),
                "the " + std::to_string(keepCount) + " taps of Gaussian sigma " + shortNumber(sigma));
  const auto radius = static_cast<double>(window / 2);
  std::vector<double> taps(keepCount);
  double total = 0.0;
  for (std::size_t j = 0; j < window; ++j) {
    const double k = static_cast<double>(j) - radius;
    const double tap = std::exp(-0.5 * k * k / (sigma * sigma));
    total += tap;
    if (j - keepFrom < keepCount) taps[j - keepFrom] = tap;
  }
  for (double& t : taps) t /= total;
  return taps;
}

}  // namespace

std::size_t gaussianWindow(double sigma) {
  checkSigma(sigma);
  const double window = defaultWindowOf(sigma);
  if (window > static_cast<double>(kMaxGaussianWindow)) {
    throw std::invalid_argument("Gaussian sigma " + shortNumber(sigma) + " needs " + countText(window) +
                                " taps; at most " + std::to_string(kMaxGaussianWindow) +
                                " are built (sigma up to 33554432)");
  }
  return static_cast<std::size_t>(window);
}

std::size_t checkedGaussianWindow(double sigma, std::size_t window) {
  checkSigma(sigma);
  if (window == 0) return gaussianWindow(sigma);
  if (window % 2 == 0) throw std::invalid_argument("window must be odd, got " + std::to_string(window));
  if (window > kMaxGaussianWindow) {
    throw std::invalid_argument("a Gaussian window of " + std::to_string(window) + " taps is too long: at most " +
                                std::to_string(kMaxGaussianWindow) + " are built");
  }
  return window;
}

FilterSpec makeGaussianFilter(double sigma, BoundaryMode mode, std::size_t window) {
  window = checkedGaussianWindow(sigma, window);
  return FilterSpec{gaussianTaps(sigma, window, 0, window), mode};
}

FilterSpec gaussianFilterForSignal(double sigma, BoundaryMode mode, std::size_t window, std::size_t samples) {
  window = checkedGaussianWindow(sigma, window);
  checkWindowFits(window, mode, samples, "--gaussian window");
  const std::size_t keep = mode == BoundaryMode::Zero ? croppedWindow(window, samples) : window;
  return FilterSpec{gaussianTaps(sigma, window, (window - keep) / 2, keep), mode};
}

std::vector<double> readTaps(const std::string& path) {
  std::vector<double> taps = readTextSignal(path);
  if (taps.size() % 2 == 0) {
    throw InputError(path, "expected an odd number of taps (one a line), found " + std::to_string(taps.size()));
  }
  return taps;
}

}  // namespace siglab
