// scipy.signal.ellipap (SciPy 1.10): Orfanidis's method with the degree equation solved by nomes,
// and cephes' ellipk / ellipj, which scipy.special calls.
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "analog_prototypes.hpp"

namespace siglab::detail {
namespace {

constexpr double kEpsilon = 2e-16;  // ellipap's EPSILON
constexpr double kMachineEpsilon = 1.11022302462515654042e-16;  // cephes' MACHEP

double agm(double a, double b) {
  for (int i = 0; i < 64 && std::abs(a - b) > kMachineEpsilon * a; ++i) {
    const double next = (a + b) / 2;
    b = std::sqrt(a * b);
    a = next;
  }
  return (a + b) / 2;
}

// K(m) and K(1 - m1): the complete elliptic integral of the first kind.
double ellipk(double m) { return std::numbers::pi / (2 * agm(1, std::sqrt(1 - m))); }
double ellipkm1(double m1) { return std::numbers::pi / (2 * agm(1, std::sqrt(m1))); }

struct Jacobi {
  double sn, cn, dn;
};

// cephes ellpj: the descending AGM (Landen) method.
Jacobi ellipj(double u, double m) {
  if (m < 1.0e-9) {
    const double t = std::sin(u), b = std::cos(u), ai = 0.25 * m * (u - t * b);
    return {t - ai * b, b + ai * t, 1.0 - 0.5 * m * t * t};
  }
  if (m >= 0.9999999999) {
    double ai = 0.25 * (1.0 - m);
    const double b = std::cosh(u), t = std::tanh(u), phi = 1.0 / b, twon = b * std::sinh(u);
    const double sn = t + ai * (twon - u) / (b * b);
    ai *= t * phi;
    return {sn, phi - ai * (twon - u), phi + ai * (twon + u)};
  }
  std::array<double, 9> a{}, c{};
  a[0] = 1;
  double b = std::sqrt(1.0 - m);
  c[0] = std::sqrt(m);
  double twon = 1;
  int i = 0;
  while (std::abs(c[i] / a[i]) > kMachineEpsilon) {
    if (i > 7) break;
    const double ai = a[i];
    ++i;
    c[i] = (ai - b) / 2.0;
    const double t = std::sqrt(ai * b);
    a[i] = (ai + b) / 2.0;
    b = t;
    twon *= 2.0;
  }
  double phi = twon * a[i] * u;
  do {
    const double t = c[i] * std::sin(phi) / a[i];
    b = phi;
    phi = (std::asin(t) + phi) / 2.0;
  } while (--i);
  const double cn = std::cos(phi);
  return {std::sin(phi), cn, cn / std::cos(phi - b)};
}

double pow10m1(double x) { return std::expm1(std::log(10.0) * x); }

// Solves n K(m) / K'(m) = K1(m1) / K1'(m1) for m by nomes.
double ellipdeg(int n, double m1) {
  const double q1 = std::exp(-std::numbers::pi * ellipkm1(m1) / ellipk(m1));
  const double q = std::pow(q1, 1.0 / n);
  double num = 0, den = 0;
  for (int k = 0; k <= 7; ++k) num += std::pow(q, k * (k + 1));
  for (int k = 1; k <= 8; ++k) den += std::pow(q, k * k);
  den = 1 + 2 * den;
  return 16 * q * std::pow(num / den, 4);
}

Complex complement(Complex kx) { return std::sqrt((1.0 - kx) * (1.0 + kx)); }

// The inverse of Jacobi's sn for a complex argument, by Landen's transformation.
Complex arcJacobiSn(Complex w, double m) {
  const double k = std::sqrt(m);
  if (k == 1) return std::atanh(w);
  std::vector<double> ks{k};
  while (ks.back() != 0) {
    const double kp = std::sqrt((1 - ks.back()) * (1 + ks.back()));
    ks.push_back((1 - kp) / (1 + kp));
    if (ks.size() > 11) throw std::invalid_argument("ellip design: Landen transformation not converging");
  }
  double capk = 1;
  for (std::size_t i = 1; i < ks.size(); ++i) capk *= 1 + ks[i];
  capk *= std::numbers::pi / 2;
  for (std::size_t i = 0; i + 1 < ks.size(); ++i) w = 2.0 * w / ((1 + ks[i + 1]) * (1.0 + complement(ks[i] * w)));
  return capk * (2 / std::numbers::pi * std::asin(w));
}

}  // namespace

Zpk ellipap(int order, double passRipple, double stopAttenuation) {
  Zpk proto;
  if (order == 1) {
    const double p = -std::sqrt(1.0 / pow10m1(0.1 * passRipple));
    proto.p = {p};
    proto.k = -p;
    return proto;
  }
  const double epsSq = pow10m1(0.1 * passRipple);
  const double eps = std::sqrt(epsSq);
  const double ck1Sq = epsSq / pow10m1(0.1 * stopAttenuation);
  if (ck1Sq == 0) throw std::invalid_argument("ellip: cannot design a filter with these rp and rs (rs too large for rp)");
  const double k1 = ellipk(ck1Sq);
  const double m = ellipdeg(order, ck1Sq);
  const double capk = ellipk(m);
  std::vector<Jacobi> points;
  for (int j = 1 - order % 2; j < order; j += 2) points.push_back(ellipj(j * capk / order, m));
  Roots zeros;
  for (const Jacobi& e : points) {
    if (std::abs(e.sn) > kEpsilon) zeros.emplace_back(0.0, 1.0 / (std::sqrt(m) * e.sn));
  }
  proto.z = zeros;
  for (const Complex& z : zeros) proto.z.push_back(std::conj(z));
  const Complex r = arcJacobiSn(Complex(0, 1.0 / eps), ck1Sq);
  if (std::abs(r.real()) > 1e-14) throw std::invalid_argument("ellip: the design's inverse sc did not come out real");
  const double v0 = capk * r.imag() / (order * k1);
  const Jacobi v = ellipj(v0, 1 - m);
  Roots poles;
  for (const Jacobi& e : points) {
    poles.push_back(-Complex(e.cn * e.dn * v.sn * v.cn, e.sn * v.dn) / (1 - std::pow(e.dn * v.sn, 2.0)));
  }
  proto.p = poles;
  if (order % 2 == 1) {
    double norm = 0;
    for (const Complex& p : poles) norm += (p * std::conj(p)).real();
    for (const Complex& p : poles) {
      if (std::abs(p.imag()) > kEpsilon * std::sqrt(norm)) proto.p.push_back(std::conj(p));
    }
  } else {
    for (const Complex& p : poles) proto.p.push_back(std::conj(p));
  }
  Roots negP = proto.p, negZ = proto.z;
  for (Complex& c : negP) c = -c;
  for (Complex& c : negZ) c = -c;
  proto.k = (product(negP) / product(negZ)).real();
  if (order % 2 == 0) proto.k = proto.k / std::sqrt(1 + epsSq);
  return proto;
}

}  // namespace siglab::detail
