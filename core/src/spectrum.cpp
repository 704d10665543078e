// Welch's method: the options, windows and scaling shared by every engine, and the reference.
#include "siglab/spectrum.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <numbers>

#include "siglab/sample_rate.hpp"

namespace siglab {

void validate(const WelchOptions& options, std::size_t samples) {
  if (samples == 0) throw SpectrumOptionError("INPUT", "the signal has no samples; a spectrum needs at least one");
  if (options.segment == 0 || options.segment > samples) {
    throw SpectrumOptionError("--segment", "the segment must be 1 to " + std::to_string(samples) +
                                               " samples (the signal's length), got " + std::to_string(options.segment));
  }
  if (options.overlapOrDefault() >= options.segment) {
    throw SpectrumOptionError("--overlap", "the overlap must be 0 to " + std::to_string(options.segment - 1) +
                                               " samples (less than the segment), got " +
                                               std::to_string(options.overlapOrDefault()));
  }
  if (options.sampleRate) {
    try {
      checkSampleRate(*options.sampleRate, "the rate");
    } catch (const std::invalid_argument& e) {
      throw SpectrumOptionError("--rate", e.what());
    }
  }
}

std::string_view toString(SpectrumWindow window) {
  switch (window) {
    case SpectrumWindow::hann: return "hann";
    case SpectrumWindow::hamming: return "hamming";
    case SpectrumWindow::blackman: return "blackman";
    case SpectrumWindow::boxcar: return "boxcar";
  }
  return "?";
}

std::optional<SpectrumWindow> parseSpectrumWindow(std::string_view name) {
  for (SpectrumWindow w : {SpectrumWindow::hann, SpectrumWindow::hamming, SpectrumWindow::blackman, SpectrumWindow::boxcar}) {
    if (toString(w) == name) return w;
  }
  return std::nullopt;
}

std::vector<double> spectrumWindow(SpectrumWindow window, std::size_t n) {
  std::vector<double> w(n, 1.0);
  if (n <= 1 || window == SpectrumWindow::boxcar) return w;
  // scipy's general_cosine on n + 1 points, fac = linspace(-pi, pi, n + 1), the last one dropped.
  std::vector<double> a;
  if (window == SpectrumWindow::hann) a = {0.5, 0.5};
  if (window == SpectrumWindow::hamming) a = {0.54, 0.46};
  if (window == SpectrumWindow::blackman) a = {0.42, 0.50, 0.08};
  const double step = 2.0 * std::numbers::pi / static_cast<double>(n);
  for (std::size_t i = 0; i < n; ++i) {
    const double fac = -std::numbers::pi + static_cast<double>(i) * step;
    double sum = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) sum += a[k] * std::cos(static_cast<double>(k) * fac);
    w[i] = sum;
  }
  return w;
}

std::size_t segmentCount(const WelchOptions& options, std::size_t samples) {
  const std::size_t overlap = options.overlapOrDefault();
  if (samples < options.segment || overlap >= options.segment) return 0;
  return (samples - overlap) / (options.segment - overlap);
}

std::size_t frequencyCount(const WelchOptions& options) { return options.segment / 2 + 1; }

double powerScale(const WelchOptions& options) {
  const std::vector<double> w = spectrumWindow(options.window, options.segment);
  double sum = 0.0, sumSquares = 0.0;
  for (double v : w) {
    sum += v;
    sumSquares += v * v;
  }
  if (options.scaling == SpectrumScaling::spectrum) return 1.0 / (sum * sum);
  return 1.0 / (options.sampleRate.value_or(1.0) * sumSquares);
}

std::vector<double> spectrumFrequencies(const WelchOptions& options) {
  // numpy.fft.rfftfreq(n, 1 / rate): k * (1 / (n * (1 / rate))), rounded as numpy rounds it.
  const double spacing = 1.0 / (static_cast<double>(options.segment) * (1.0 / options.sampleRate.value_or(1.0)));
  std::vector<double> f(frequencyCount(options));
  for (std::size_t k = 0; k < f.size(); ++k) f[k] = static_cast<double>(k) * spacing;
  return f;
}

void finishPower(std::span<double> sums, const WelchOptions& options, std::size_t segments) {
  const double factor = powerScale(options) / static_cast<double>(segments);
  // Every bin but 0 (and the Nyquist bin of an even segment) also stands for its negative frequency.
  const std::size_t lastDoubled = options.segment % 2 == 0 ? sums.size() - 1 : sums.size();
  for (std::size_t k = 0; k < sums.size(); ++k) {
    sums[k] *= factor;
    if (k >= 1 && k < lastDoubled) sums[k] *= 2.0;
  }
}

std::vector<double> powerToDecibels(std::span<const double> power) {
  double peak = 0.0;
  for (double p : power) peak = std::max(peak, p);
  const double floor = peak > 0.0 ? peak * 1e-30 : 1e-300;
  std::vector<double> db(power.size());
  for (std::size_t k = 0; k < db.size(); ++k) db[k] = 10.0 * std::log10(std::max(power[k], floor));
  return db;
}

Spectrum welchReference(std::span<const double> x, const WelchOptions& options) {
  validate(options, x.size());
  const std::size_t n = options.segment, step = n - options.overlapOrDefault(), segments = segmentCount(options, x.size());
  const std::vector<double> w = spectrumWindow(options.window, n);
  // exp(-2 pi i m / n) for m = 0..n-1 in long double; bin k of sample j uses m = j k mod n.
  std::vector<std::complex<long double>> roots(n);
  for (std::size_t m = 0; m < n; ++m) {
    const long double angle = -2.0L * std::numbers::pi_v<long double> * static_cast<long double>(m) / static_cast<long double>(n);
    roots[m] = {std::cos(angle), std::sin(angle)};
  }
  std::vector<double> sums(frequencyCount(options), 0.0);
  std::vector<long double> frame(n);
  for (std::size_t s = 0; s < segments; ++s) {
    const double* segment = x.data() + s * step;
    long double mean = 0.0L;
    if (options.detrend == Detrend::constant) {
      for (std::size_t j = 0; j < n; ++j) mean += segment[j];
      mean /= static_cast<long double>(n);
    }
    for (std::size_t j = 0; j < n; ++j) frame[j] = (segment[j] - mean) * w[j];
    for (std::size_t k = 0; k < sums.size(); ++k) {
      std::complex<long double> bin = 0.0L;
      for (std::size_t j = 0; j < n; ++j) bin += frame[j] * roots[(j * k) % n];
      sums[k] += static_cast<double>(std::norm(bin));
    }
  }
  finishPower(sums, options, segments);
  return Spectrum{spectrumFrequencies(options), std::move(sums)};
}

}  // namespace siglab
