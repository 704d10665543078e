// scipy.signal.besselap (SciPy 1.10): the poles are the reciprocals of the Bessel polynomial's
// roots, found by Aberth's method from Campos and Calderon's starting points, then normalised.
// SciPy iterates on the modified Bessel function kve; the polynomial has the same roots.
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "analog_prototypes.hpp"

namespace siglab::detail {
namespace {

// y_n(x) = sum_j c_j x^j, c_j = (n + j)! / (2^j j! (n - j)!), lowest power first.
std::vector<double> besselPolynomial(int n) {
  std::vector<double> c{1.0};
  for (int j = 1; j <= n; ++j) c.push_back(c.back() * (n + j) * (n - j + 1) / (2.0 * j));
  return c;
}

// The polynomial and its derivative at x, by Horner's rule.
std::pair<Complex, Complex> evaluate(const std::vector<double>& c, Complex x) {
  Complex f = 0, fp = 0;
  for (std::size_t j = c.size(); j-- > 0;) {
    fp = fp * x + f;
    f = f * x + c[j];
  }
  return {f, fp};
}

// numpy.polynomial.polynomial.polyval: c[0] + c[1] x + ...
double polyval(double x, std::initializer_list<double> c) {
  double v = 0, power = 1;
  for (double coefficient : c) {
    v += coefficient * power;
    power *= x;
  }
  return v;
}

// scipy's _campos_zeros: starting points for the roots of y_n.
Roots camposZeros(int n) {
  if (n == 1) return {Complex(-1, 0)};
  const double s = polyval(n, {0, 0, 2, 0, -3, 1});
  const double b3 = polyval(n, {16, -8}) / s, b2 = polyval(n, {-24, -12, 12}) / s;
  const double b1 = polyval(n, {8, 24, -12, -2}) / s, b0 = polyval(n, {0, -6, 0, 5, -1}) / s;
  const double r = polyval(n, {0, 0, 2, 1});
  const double a1 = polyval(n, {-6, -6}) / r, a2 = 6 / r;
  Roots x;
  for (int k = 1; k <= n; ++k) x.emplace_back(polyval(k, {0, a1, a2}), polyval(k, {b0, b1, b2, b3}));
  return x;
}

Roots besselZeros(int n) {
  const std::vector<double> c = besselPolynomial(n);
  Roots x = camposZeros(n);
  for (int iteration = 0; iteration < 100; ++iteration) {
    bool converged = true;
    Roots next = x;
    for (std::size_t k = 0; k < x.size(); ++k) {
      const auto [f, fp] = evaluate(c, x[k]);
      const Complex alpha = -f / fp;
      Complex beta = 0;
      for (std::size_t j = 0; j < x.size(); ++j) {
        if (j != k) beta += 1.0 / (x[k] - x[j]);
      }
      next[k] = x[k] + alpha / (1.0 + alpha * beta);
      if (std::abs(alpha) > 1e-15 * std::max(1.0, std::abs(x[k]))) converged = false;
    }
    x = next;
    for (const Complex& r : x) {
      if (!std::isfinite(r.real()) || !std::isfinite(r.imag())) throw std::invalid_argument("bessel: root finding failed");
    }
    if (converged) break;
  }
  // Polish each root by Newton's method in extended precision (the polynomial's terms grow to
  // 1e31 at order 25, so double's evaluation is too coarse), then make the pairs exact conjugates
  // (as SciPy does).
  using Wide = std::complex<long double>;
  std::vector<long double> wide{1.0L};
  for (int j = 1; j <= n; ++j) wide.push_back(wide.back() * (n + j) * (n - j + 1) / (2.0L * j));
  for (Complex& r : x) {
    Wide w(r.real(), r.imag());
    for (int i = 0; i < 8; ++i) {
      Wide f = 0, fp = 0;
      for (std::size_t j = wide.size(); j-- > 0;) {
        fp = fp * w + f;
        f = f * w + wide[j];
      }
      w -= f / fp;
    }
    r = Complex(static_cast<double>(w.real()), static_cast<double>(w.imag()));
  }
  Roots symmetric(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) symmetric[i] = (x[i] + std::conj(x[x.size() - 1 - i])) / 2.0;
  return symmetric;
}

// The frequency where the gain |k / prod(jw - p)| is -3 dB, by scipy.optimize.newton's secant
// steps from 1.5.
double magnitudeNormFactor(const Roots& p, double k) {
  const auto cutoff = [&](double w) {
    Complex prod = 1;
    for (const Complex& r : p) prod *= Complex(0, w) - r;
    return std::abs(k / prod) - 1 / std::sqrt(2.0);
  };
  double p0 = 1.5, p1 = 1.5 * (1 + 1e-4) + 1e-4;
  double q0 = cutoff(p0), q1 = cutoff(p1);
  if (std::abs(q1) < std::abs(q0)) {
    std::swap(p0, p1);
    std::swap(q0, q1);
  }
  for (int iteration = 0; iteration < 50; ++iteration) {
    if (q1 == q0) return (p1 + p0) / 2.0;
    const double next = std::abs(q1) > std::abs(q0) ? (-q0 / q1 * p1 + p0) / (1 - q0 / q1)
                                                 : (-q1 / q0 * p0 + p1) / (1 - q1 / q0);
    if (std::abs(next - p1) <= 1.48e-8) return next;
    p0 = p1;
    q0 = q1;
    p1 = next;
    q1 = cutoff(p1);
  }
  throw std::invalid_argument("bessel: the -3 dB frequency (norm mag) did not converge");
}

}  // namespace

Zpk besselap(int order, BesselNorm norm) {
  Zpk proto;
  for (const Complex& x : besselZeros(order)) proto.p.push_back(1.0 / x);
  const double aLast = besselPolynomial(order).back();  // (2N)! / (2^N N!), rounded once or so
  switch (norm) {
    case BesselNorm::Phase: {
      const double scale = std::pow(10.0, -std::log10(aLast) / order);
      for (Complex& r : proto.p) r *= scale;
      proto.k = 1;
      break;
    }
    case BesselNorm::Delay: proto.k = aLast; break;
    case BesselNorm::Mag: {
      const double factor = magnitudeNormFactor(proto.p, aLast);
      for (Complex& r : proto.p) r /= factor;
      proto.k = std::pow(factor, -order) * aLast;
      break;
    }
  }
  return proto;
}

}  // namespace siglab::detail
