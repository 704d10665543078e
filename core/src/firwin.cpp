#include "siglab/firwin.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

// scipy.signal.windows.general_cosine, symmetric: sum_k a_k cos(k x), x = linspace(-pi, pi, m).
std::vector<double> generalCosine(std::size_t m, std::initializer_list<double> a) {
  std::vector<double> w(m, 0.0);
  const double step = 2 * std::numbers::pi / static_cast<double>(m - 1);
  for (std::size_t i = 0; i < m; ++i) {
    const double x = i + 1 == m ? std::numbers::pi : static_cast<double>(i) * step - std::numbers::pi;
    int k = 0;
    for (double ak : a) {
      w[i] += ak * std::cos(k * x);
      ++k;
    }
  }
  return w;
}

// The modified Bessel function I0 by its power series (every term positive: accurate to rounding).
double besselI0(double x) {
  double sum = 1, term = 1;
  const double quarter = x * x / 4;
  for (int k = 1; k < 500 && term > 1e-17 * sum; ++k) {
    term *= quarter / (static_cast<double>(k) * k);
    sum += term;
  }
  return sum;
}

double sinc(double x) {
  const double y = std::numbers::pi * (x == 0 ? 1.0e-20 : x);
  return std::sin(y) / y;
}

}  // namespace

const std::vector<std::string>& firwinWindows() {
  static const std::vector<std::string> names{"hamming", "hann",    "blackman", "blackmanharris", "nuttall",
                                              "flattop", "boxcar",  "bartlett", "kaiser"};
  return names;
}

std::vector<double> symmetricWindow(std::string_view name, std::size_t m, double beta) {
  if (m <= 1) return std::vector<double>(m, 1.0);
  if (name == "hamming") return generalCosine(m, {0.54, 1. - 0.54});
  if (name == "hann") return generalCosine(m, {0.5, 1. - 0.5});
  if (name == "blackman") return generalCosine(m, {0.42, 0.50, 0.08});
  if (name == "blackmanharris") return generalCosine(m, {0.35875, 0.48829, 0.14128, 0.01168});
  if (name == "nuttall") return generalCosine(m, {0.3635819, 0.4891775, 0.1365995, 0.0106411});
  if (name == "flattop") return generalCosine(m, {0.21557895, 0.41663158, 0.277263158, 0.083578947, 0.006947368});
  std::vector<double> w(m, 1.0);
  if (name == "boxcar") return w;
  const double half = (static_cast<double>(m) - 1) / 2;
  if (name == "bartlett") {
    for (std::size_t n = 0; n < m; ++n) {
      const double r = 2.0 * static_cast<double>(n) / (static_cast<double>(m) - 1);
      w[n] = static_cast<double>(n) <= half ? r : 2.0 - r;
    }
    return w;
  }
  if (name == "kaiser") {
    for (std::size_t n = 0; n < m; ++n) {
      const double r = (static_cast<double>(n) - half) / half;
      w[n] = besselI0(beta * std::sqrt(1 - r * r)) / besselI0(beta);
    }
    return w;
  }
  throw std::invalid_argument("firwin window must be one of hamming, hann, blackman, blackmanharris, nuttall, flattop, "
                              "boxcar, bartlett, kaiser; got \"" + std::string(name) + "\"");
}

std::string_view toString(FirPassZero passZero) {
  switch (passZero) {
    case FirPassZero::True: return "true";
    case FirPassZero::False: return "false";
    case FirPassZero::Lowpass: return "lowpass";
    case FirPassZero::Highpass: return "highpass";
    case FirPassZero::Bandpass: return "bandpass";
    case FirPassZero::Bandstop: return "bandstop";
  }
  return "true";
}

std::vector<double> firwinTaps(const FirwinSpec& spec) {
  const std::size_t numtaps = spec.numtaps;
  if (numtaps < 1 || numtaps > kMaxFirwinTaps) {
    throw std::invalid_argument("firwin numtaps must be 1 to " + std::to_string(kMaxFirwinTaps) + ", got " +
                                std::to_string(numtaps));
  }
  if (spec.cutoffs.empty()) throw std::invalid_argument("firwin needs at least one cutoff frequency");
  const bool hz = spec.sampleRate > 0;
  std::vector<double> cutoff;
  for (double c : spec.cutoffs) cutoff.push_back(c / (hz ? 0.5 * spec.sampleRate : 1.0));
  for (std::size_t i = 0; i < cutoff.size(); ++i) {
    if (!(cutoff[i] > 0 && cutoff[i] < 1)) {
      throw std::invalid_argument(
          "firwin cutoff must be " +
          (hz ? "between 0 and the Nyquist frequency " + shortNumber(spec.sampleRate / 2) + " Hz"
              : std::string("between 0 and 1 (a fraction of Nyquist)")) +
          ", exclusive, got " + shortNumber(spec.cutoffs[i]));
    }
    if (i > 0 && !(cutoff[i] > cutoff[i - 1])) {
      throw std::invalid_argument("firwin cutoffs must be strictly increasing, got " + shortNumber(spec.cutoffs[i - 1]) +
                                  " then " + shortNumber(spec.cutoffs[i]));
    }
  }
  bool passZero = spec.passZero == FirPassZero::True;
  const std::string named(toString(spec.passZero));
  switch (spec.passZero) {
    case FirPassZero::True:
    case FirPassZero::False: break;
    case FirPassZero::Lowpass:
    case FirPassZero::Highpass:
      if (cutoff.size() != 1) throw std::invalid_argument("firwin pass-zero " + named + " takes one cutoff");
      passZero = spec.passZero == FirPassZero::Lowpass;
      break;
    case FirPassZero::Bandpass:
    case FirPassZero::Bandstop:
      if (cutoff.size() < 2) throw std::invalid_argument("firwin pass-zero " + named + " needs at least two cutoffs");
      passZero = spec.passZero == FirPassZero::Bandstop;
      break;
  }
  const bool passNyquist = ((cutoff.size() & 1) != 0) != passZero;
  if (passNyquist && numtaps % 2 == 0) {
    throw std::invalid_argument("firwin: a filter with an even number of taps (numtaps " + std::to_string(numtaps) +
                                ") must have zero response at the Nyquist frequency: use an odd numtaps");
  }
  std::vector<double> edges;
  if (passZero) edges.push_back(0.0);
  edges.insert(edges.end(), cutoff.begin(), cutoff.end());
  if (passNyquist) edges.push_back(1.0);
  const double alpha = 0.5 * (static_cast<double>(numtaps) - 1);
  std::vector<double> h(numtaps, 0.0);
  for (std::size_t i = 0; i < numtaps; ++i) {
    const double m = static_cast<double>(i) - alpha;
    for (std::size_t b = 0; b + 1 < edges.size(); b += 2) {
      h[i] += edges[b + 1] * sinc(edges[b + 1] * m);
      h[i] -= edges[b] * sinc(edges[b] * m);
    }
  }
  const std::vector<double> window = symmetricWindow(spec.window, numtaps, spec.beta);
  for (std::size_t i = 0; i < numtaps; ++i) h[i] *= window[i];
  // Unit gain at the first passband's centre (0 or Nyquist at an end).
  const double left = edges[0], right = edges[1];
  const double at = left == 0 ? 0.0 : right == 1 ? 1.0 : 0.5 * (left + right);
  double s = 0;
  for (std::size_t i = 0; i < numtaps; ++i) s += h[i] * std::cos(std::numbers::pi * (static_cast<double>(i) - alpha) * at);
  for (double& v : h) v /= s;
  return h;
}

}  // namespace siglab
