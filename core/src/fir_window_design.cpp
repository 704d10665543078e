// firwin's low-pass and the two windows resample_poly and decimate use, as scipy 1.10 writes them.
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "siglab/rate_designs.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {

std::string firWindowText(const FirWindow& window) {
  return window.shape == FirWindow::Shape::Hamming ? "hamming" : "kaiser " + shortNumber(window.beta);
}

std::vector<double> symmetricWindow(const FirWindow& window, std::size_t n) {
  std::vector<double> w(n, 1.0);
  if (n <= 1) return w;
  const double last = static_cast<double>(n - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const double k = static_cast<double>(i);
    if (window.shape == FirWindow::Shape::Hamming) {
      // general_cosine with a = [0.54, 0.46] over linspace(-pi, pi, n)
      const double step = 2 * std::numbers::pi / last;
      const double fac = i + 1 == n ? std::numbers::pi : -std::numbers::pi + k * step;
      w[i] = 0.54 + 0.46 * std::cos(fac);
    } else {
      const double alpha = last / 2.0;
      const double r = (k - alpha) / alpha;
      w[i] = std::cyl_bessel_i(0.0, window.beta * std::sqrt(1 - r * r)) / std::cyl_bessel_i(0.0, window.beta);
    }
  }
  return w;
}

std::vector<double> firwinLowpass(std::size_t numtaps, double cutoff, const FirWindow& window) {
  if (numtaps < 1) throw std::invalid_argument("numtaps must be at least 1");
  if (!(cutoff > 0 && cutoff < 1)) {
    throw std::invalid_argument("firwin cutoff must be between 0 and 1 (a fraction of Nyquist), exclusive");
  }
  const double alpha = 0.5 * static_cast<double>(numtaps - 1);
  const std::vector<double> w = symmetricWindow(window, numtaps);
  std::vector<double> h(numtaps);
  double sum = 0.0;
  for (std::size_t i = 0; i < numtaps; ++i) {
    const double m = static_cast<double>(i) - alpha;
    const double y = std::numbers::pi * (cutoff * m == 0 ? 1.0e-20 : cutoff * m);  // numpy's sinc
    h[i] = cutoff * (std::sin(y) / y) * w[i];
    sum += h[i];
  }
  for (double& v : h) v /= sum;
  return h;
}

}  // namespace siglab
