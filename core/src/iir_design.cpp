#include "siglab/iir_design.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>
#include <vector>

#include "analog_prototypes.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace detail {

Complex product(const Roots& roots) {
  Complex p = 1;
  for (const Complex& r : roots) p *= r;
  return p;
}

namespace {
Roots negated(Roots roots) {
  for (Complex& r : roots) r = -r;
  return roots;
}
}  // namespace

Zpk cheb1ap(int order, double passRipple) {
  const double eps = std::sqrt(std::pow(10.0, 0.1 * passRipple) - 1.0);
  const double mu = 1.0 / order * std::asinh(1 / eps);
  Zpk proto;
  for (int m = -order + 1; m < order; m += 2) {
    const double theta = std::numbers::pi * m / (2 * order);
    proto.p.push_back(-std::sinh(Complex(mu, theta)));
  }
  proto.k = product(negated(proto.p)).real();
  if (order % 2 == 0) proto.k = proto.k / std::sqrt(1 + eps * eps);
  return proto;
}

Zpk cheb2ap(int order, double stopAttenuation) {
  const double de = 1.0 / std::sqrt(std::pow(10.0, 0.1 * stopAttenuation) - 1);
  const double mu = std::asinh(1.0 / de) / order;
  Zpk proto;
  for (int m = -order + 1; m < order; m += 2) {
    if (m == 0) continue;  // odd orders: no zero at infinity's mirror
    proto.z.push_back(-std::conj(Complex(0, 1) / std::sin(m * std::numbers::pi / (2.0 * order))));
  }
  for (int m = -order + 1; m < order; m += 2) {
    const Complex b = -std::exp(Complex(0, 1) * (std::numbers::pi * m / (2 * order)));
    const Complex warped(std::sinh(mu) * b.real(), std::cosh(mu) * b.imag());
    proto.p.push_back(1.0 / warped);
  }
  proto.k = (product(negated(proto.p)) / product(negated(proto.z))).real();
  return proto;
}

namespace {

std::size_t relativeDegree(const Zpk& f) { return f.p.size() - f.z.size(); }

void lowpass(Zpk& f, double wo) {
  const std::size_t degree = relativeDegree(f);
  for (Complex& r : f.z) r = wo * r;
  for (Complex& r : f.p) r = wo * r;
  f.k = f.k * std::pow(wo, static_cast<double>(degree));
}

void highpass(Zpk& f, double wo) {
  const std::size_t degree = relativeDegree(f);
  const double gain = (product(negated(f.z)) / product(negated(f.p))).real();
  for (Complex& r : f.z) r = wo / r;
  for (Complex& r : f.p) r = wo / r;
  f.z.insert(f.z.end(), degree, 0.0);
  f.k = f.k * gain;
}

// z + sqrt(z^2 - wo^2) for every root, then z - sqrt(z^2 - wo^2) for every root.
Roots bandRoots(const Roots& roots, double wo) {
  Roots upper, lower;
  for (const Complex& r : roots) {
    const Complex root = std::sqrt(r * r - wo * wo);
    upper.push_back(r + root);
    lower.push_back(r - root);
  }
  upper.insert(upper.end(), lower.begin(), lower.end());
  return upper;
}

void bandpass(Zpk& f, double wo, double bw) {
  const std::size_t degree = relativeDegree(f);
  for (Complex& r : f.z) r = r * bw / 2.0;
  for (Complex& r : f.p) r = r * bw / 2.0;
  f.z = bandRoots(f.z, wo);
  f.p = bandRoots(f.p, wo);
  f.z.insert(f.z.end(), degree, 0.0);
  f.k = f.k * std::pow(bw, static_cast<double>(degree));
}

void bandstop(Zpk& f, double wo, double bw) {
  const std::size_t degree = relativeDegree(f);
  const double gain = (product(negated(f.z)) / product(negated(f.p))).real();
  for (Complex& r : f.z) r = (bw / 2) / r;
  for (Complex& r : f.p) r = (bw / 2) / r;
  f.z = bandRoots(f.z, wo);
  f.p = bandRoots(f.p, wo);
  f.z.insert(f.z.end(), degree, Complex(0, wo));
  f.z.insert(f.z.end(), degree, Complex(0, -wo));
  f.k = f.k * gain;
}

// bilinear_zpk at fs = 2 (fs2 = 4); zeros at infinity go to Nyquist (z = -1).
void bilinear(Zpk& f) {
  constexpr double fs2 = 4.0;
  const std::size_t degree = relativeDegree(f);
  Roots zShift, pShift;
  for (const Complex& r : f.z) zShift.push_back(fs2 - r);
  for (const Complex& r : f.p) pShift.push_back(fs2 - r);
  f.k = f.k * (product(zShift) / product(pShift)).real();
  for (Complex& r : f.z) r = (fs2 + r) / (fs2 - r);
  for (Complex& r : f.p) r = (fs2 + r) / (fs2 - r);
  f.z.insert(f.z.end(), degree, -1.0);
}

}  // namespace
}  // namespace detail

namespace {

bool twoEdges(BandType type) { return type == BandType::Bandpass || type == BandType::Bandstop; }

std::string familyWord(const IirDesign& d) { return std::string(toString(d.family)); }

// The cutoffs as fractions of Nyquist, checked as iirfilter checks them.
std::vector<double> normalisedCutoffs(const IirDesign& d) {
  const ButterworthSpec& band = d.band;
  std::vector<double> wn = {band.cutoff};
  if (twoEdges(band.type)) wn.push_back(band.cutoff2);
  const bool hz = band.sampleRate > 0;
  const std::string range = hz ? "between 0 and the Nyquist frequency " + shortNumber(band.sampleRate / 2) + " Hz"
                               : "between 0 and 1 (a fraction of Nyquist)";
  for (double& w : wn) {
    const double given = w;
    if (hz) w = 2 * w / band.sampleRate;
    if (!(w > 0 && w < 1)) {
      throw std::invalid_argument(familyWord(d) + " cutoff must be " + range + ", exclusive, got " + shortNumber(given));
    }
  }
  if (wn.size() == 2 && !(wn[0] < wn[1])) {
    throw std::invalid_argument(familyWord(d) + " band cutoffs must increase (low edge below high edge), got " +
                                shortNumber(band.cutoff) + " and " + shortNumber(band.cutoff2));
  }
  return wn;
}

void checkDecibels(const IirDesign& d, double value, const char* name, const char* what) {
  if (!(value > 0) || !std::isfinite(value)) {
    throw std::invalid_argument(familyWord(d) + " " + name + " (" + what + ") must be a positive number of dB, got " +
                                shortNumber(value));
  }
}

detail::Zpk prototype(const IirDesign& d) {
  const int n = d.band.order;
  const int most = d.family == IirFamily::Bessel ? kMaxBesselOrder : kMaxIirOrder;
  if (n < 1 || n > most) {
    throw std::invalid_argument(familyWord(d) + " order must be 1 to " + std::to_string(most) + ", got " +
                                std::to_string(n));
  }
  switch (d.family) {
    case IirFamily::Chebyshev1:
      checkDecibels(d, d.passRipple, "rp", "the passband ripple");
      return detail::cheb1ap(n, d.passRipple);
    case IirFamily::Chebyshev2:
      checkDecibels(d, d.stopAttenuation, "rs", "the stopband attenuation");
      return detail::cheb2ap(n, d.stopAttenuation);
    case IirFamily::Elliptic:
      checkDecibels(d, d.passRipple, "rp", "the passband ripple");
      checkDecibels(d, d.stopAttenuation, "rs", "the stopband attenuation");
      return detail::ellipap(n, d.passRipple, d.stopAttenuation);
    case IirFamily::Bessel: return detail::besselap(n, d.norm);
  }
  return {};
}

}  // namespace

std::string_view toString(IirFamily family) {
  switch (family) {
    case IirFamily::Chebyshev1: return "cheby1";
    case IirFamily::Chebyshev2: return "cheby2";
    case IirFamily::Elliptic: return "ellip";
    case IirFamily::Bessel: return "bessel";
  }
  return "cheby1";
}

std::string_view toString(BesselNorm norm) {
  switch (norm) {
    case BesselNorm::Phase: return "phase";
    case BesselNorm::Delay: return "delay";
    case BesselNorm::Mag: return "mag";
  }
  return "phase";
}

Sections iirSections(const IirDesign& design) {
  const ButterworthSpec& band = design.band;
  if (!(band.sampleRate >= 0) || !std::isfinite(band.sampleRate)) {
    throw std::invalid_argument("sample rate must be a positive number of Hz");
  }
  detail::Zpk f = prototype(design);
  const std::vector<double> wn = normalisedCutoffs(design);
  std::vector<double> warped;
  for (double w : wn) warped.push_back(2 * 2.0 * std::tan(std::numbers::pi * w / 2.0));
  switch (band.type) {
    case BandType::Lowpass: detail::lowpass(f, warped[0]); break;
    case BandType::Highpass: detail::highpass(f, warped[0]); break;
    case BandType::Bandpass:
      detail::bandpass(f, std::sqrt(warped[0] * warped[1]), warped[1] - warped[0]);
      break;
    case BandType::Bandstop:
      detail::bandstop(f, std::sqrt(warped[0] * warped[1]), warped[1] - warped[0]);
      break;
  }
  detail::bilinear(f);
  for (const detail::Complex& r : f.p) {
    if (!(std::abs(r) < 1)) {
      throw std::invalid_argument(familyWord(design) + " design is unstable (a pole on or outside the unit circle): "
                                  "lower the order or move the cutoff away from 0 and Nyquist");
    }
  }
  Sections sections = detail::zpkToSections(f.z, f.p, f.k);
  checkStable(sections);
  return sections;
}

Sections cheby1Sections(const ButterworthSpec& band, double passRipple) {
  IirDesign design;
  design.family = IirFamily::Chebyshev1;
  design.band = band;
  design.passRipple = passRipple;
  return iirSections(design);
}

std::string describeDesign(const IirDesign& d) {
  const ButterworthSpec& b = d.band;
  std::string text = familyWord(d) + " order " + std::to_string(b.order) + " " + std::string(toString(b.type)) + " " +
                     shortNumber(b.cutoff) + (twoEdges(b.type) ? "-" + shortNumber(b.cutoff2) : "") +
                     (b.sampleRate > 0 ? " Hz" : " x Nyquist");
  if (d.family == IirFamily::Chebyshev1 || d.family == IirFamily::Elliptic) text += " rp " + shortNumber(d.passRipple) + " dB";
  if (d.family == IirFamily::Chebyshev2 || d.family == IirFamily::Elliptic) {
    text += " rs " + shortNumber(d.stopAttenuation) + " dB";
  }
  if (d.family == IirFamily::Bessel) text += " norm " + std::string(toString(d.norm));
  return text;
}

}  // namespace siglab
