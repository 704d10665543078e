#include "siglab/butterworth.hpp"
#include "siglab/work_bounds.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <string>

#include "zpk_to_sections.hpp"

namespace siglab {
namespace {

using detail::Complex;
using detail::Roots;

// The cutoffs as fractions of Nyquist, checked.
std::vector<double> normalisedCutoffs(const ButterworthSpec& spec) {
  const bool band = spec.type == BandType::Bandpass || spec.type == BandType::Bandstop;
  std::vector<double> wn = {spec.cutoff};
  if (band) wn.push_back(spec.cutoff2);
  const bool hz = spec.sampleRate > 0;
  const std::string range = hz ? "between 0 and the Nyquist frequency " + shortNumber(spec.sampleRate / 2) + " Hz"
                               : "between 0 and 1 (a fraction of Nyquist)";
  for (double& w : wn) {
    const double given = w;
    if (hz) w = 2 * w / spec.sampleRate;
    if (!(w > 0 && w < 1)) {
      throw std::invalid_argument("butterworth cutoff must be " + range + ", exclusive, got " + shortNumber(given));
    }
  }
  if (band && !(wn[0] < wn[1])) {
    throw std::invalid_argument("butterworth band cutoffs must increase (low edge below high edge), got " +
                                shortNumber(spec.cutoff) + " and " + shortNumber(spec.cutoff2));
  }
  return wn;
}

Complex product(const Roots& roots, Complex shift, bool negate) {
  Complex p = 1;
  for (const Complex& r : roots) p *= negate ? -r : shift - r;
  return p;
}

}  // namespace

Sections butterworthSections(const ButterworthSpec& spec) {
  if (spec.order < 1 || spec.order > kMaxButterworthOrder) {
    throw std::invalid_argument("butterworth order must be 1 to " + std::to_string(kMaxButterworthOrder) + ", got " +
                                std::to_string(spec.order));
  }
  if (!(spec.sampleRate >= 0) || !std::isfinite(spec.sampleRate)) {
    throw std::invalid_argument("sample rate must be a positive number of Hz");
  }
  const std::vector<double> wn = normalisedCutoffs(spec);
  const int n = spec.order;
  // buttap: poles -exp(i pi m / 2N), m = -N+1, -N+3, ..., N-1 (m = 0 exactly -1); no zeros; gain 1.
  Roots z, p;
  for (int m = -n + 1; m < n; m += 2) p.push_back(-std::exp(Complex(0, std::numbers::pi * m / (2.0 * n))));
  double k = 1;
  // Prewarp for the bilinear transform at fs = 2.
  std::vector<double> warped;
  for (double w : wn) warped.push_back(4 * std::tan(std::numbers::pi * w / 2));
  const auto degree = static_cast<std::size_t>(n);
  switch (spec.type) {
    case BandType::Lowpass:
      for (Complex& r : p) r *= warped[0];
      k *= std::pow(warped[0], n);
      break;
    case BandType::Highpass:
      k *= std::real(1.0 / product(p, 0, true));
      for (Complex& r : p) r = warped[0] / r;
      z.assign(degree, 0);
      break;
    case BandType::Bandpass:
    case BandType::Bandstop: {
      const double bw = warped[1] - warped[0], wo = std::sqrt(warped[0] * warped[1]);
      const bool pass = spec.type == BandType::Bandpass;
      if (!pass) k *= std::real(1.0 / product(p, 0, true));
      Roots shifted, lower;
      for (const Complex& r : p) {
        const Complex base = pass ? r * (bw / 2) : (bw / 2) / r;
        const Complex root = std::sqrt(base * base - wo * wo);
        shifted.push_back(base + root);
        lower.push_back(base - root);
      }
      shifted.insert(shifted.end(), lower.begin(), lower.end());
      p = shifted;
      if (pass) {
        z.assign(degree, 0);
        k *= std::pow(bw, n);
      } else {
        z.assign(degree, Complex(0, wo));
        z.insert(z.end(), degree, Complex(0, -wo));
      }
      break;
    }
  }
  // Bilinear transform at fs = 2 (fs2 = 4); zeros at infinity go to Nyquist (z = -1).
  const std::size_t relativeDegree = p.size() - z.size();
  k *= std::real(product(z, 4, false) / product(p, 4, false));
  for (Complex& r : z) r = (4.0 + r) / (4.0 - r);
  for (Complex& r : p) r = (4.0 + r) / (4.0 - r);
  z.insert(z.end(), relativeDegree, -1.0);
  for (const Complex& r : p) {
    if (!(std::abs(r) < 1)) {
      throw std::invalid_argument("butterworth design is unstable (a pole on or outside the unit circle): lower "
                                  "the order or move the cutoff away from 0 and Nyquist");
    }
  }
  Sections sections = detail::zpkToSections(z, p, k);
  checkStable(sections);
  return sections;
}

void checkStable(const Sections& sections) {
  for (const Section& s : sections) {
    // Both roots of 1 + a1 z^-1 + a2 z^-2 inside the unit circle (the stability triangle).
    const double a1 = s[4] / s[3], a2 = s[5] / s[3];
    if (!(std::abs(a2) < 1 && std::abs(a1) < 1 + a2)) {
      throw std::invalid_argument("filter design is unstable (a section's poles are not inside the unit circle): "
                                  "lower the order or move the cutoff away from 0 and Nyquist");
    }
  }
}

}  // namespace siglab
