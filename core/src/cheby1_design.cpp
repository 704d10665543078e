// scipy.signal.cheby1(N, rp, Wn, output='sos') for a low-pass, the one design decimate needs by
// default (the `iir` work brings every band type): cheb1ap's poles and gain, prewarping at fs = 2,
// lp2lp, the bilinear transform and zpk2sos, as butterworthSections does them.
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "siglab/rate_designs.hpp"
#include "zpk_to_sections.hpp"

namespace siglab {

Sections cheby1LowpassSections(int order, double rippleDb, double cutoff) {
  using detail::Complex;
  if (order < 0) throw std::invalid_argument("cheby1 order must be >= 0");
  if (!(cutoff > 0 && cutoff < 1)) {
    throw std::invalid_argument("cheby1 cutoff must be between 0 and 1 (a fraction of Nyquist), exclusive");
  }
  if (order == 0) return {Section{std::pow(10.0, -rippleDb / 20), 0, 0, 1, 0, 0}};
  const double eps = std::sqrt(std::pow(10.0, 0.1 * rippleDb) - 1.0);
  const double mu = 1.0 / order * std::asinh(1 / eps);
  detail::Roots z, p;
  for (int m = -order + 1; m < order; m += 2) {
    const double theta = std::numbers::pi * m / (2.0 * order);
    p.push_back(-std::sinh(Complex(mu, theta)));
  }
  Complex gain = 1;
  for (const Complex& r : p) gain *= -r;
  double k = gain.real();
  if (order % 2 == 0) k /= std::sqrt(1 + eps * eps);
  const double warped = 4 * std::tan(std::numbers::pi * cutoff / 2);
  for (Complex& r : p) r *= warped;
  k *= std::pow(warped, order);
  Complex denominator = 1;
  for (const Complex& r : p) denominator *= 4.0 - r;
  k *= std::real(1.0 / denominator);
  for (Complex& r : p) r = (4.0 + r) / (4.0 - r);
  z.assign(p.size(), -1.0);
  Sections sections = detail::zpkToSections(z, p, k);
  checkStable(sections);
  return sections;
}

}  // namespace siglab
