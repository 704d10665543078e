// scipy.signal.spectrogram / stft frames (spectrogram.hpp).
#include "siglab/spectrogram.hpp"

#include <fftw3.h>

#include <cmath>
#include <cstdint>
#include <numbers>
#include <algorithm>
#include <stdexcept>

#include "fftw_plans.hpp"
#include "siglab/spectrum.hpp"

namespace siglab {
namespace {

constexpr std::size_t kMaxSegment = std::size_t{1} << 24;

std::string text(std::uint64_t v) { return std::to_string(v); }

// SciPy's tukey(M, alpha, sym=False): the symmetric window of M + 1 points, the last dropped.
std::vector<double> tukey(std::size_t n, double alpha) {
  if (n <= 1) return std::vector<double>(n, 1.0);
  if (alpha <= 0) return std::vector<double>(n, 1.0);
  if (alpha >= 1.0) return spectrumWindow(SpectrumWindow::hann, n);
  const std::size_t m = n + 1;
  const auto width = static_cast<std::size_t>(std::floor(alpha * static_cast<double>(m - 1) / 2.0));
  std::vector<double> w(m, 1.0);
  const double last = static_cast<double>(m - 1);
  for (std::size_t i = 0; i <= width; ++i) {
    w[i] = 0.5 * (1 + std::cos(std::numbers::pi * (-1 + 2.0 * static_cast<double>(i) / alpha / last)));
  }
  for (std::size_t i = m - width - 1; i < m; ++i) {
    w[i] = 0.5 * (1 + std::cos(std::numbers::pi * (-2.0 / alpha + 1 + 2.0 * static_cast<double>(i) / alpha / last)));
  }
  w.pop_back();
  return w;
}

// numpy's pairwise summation (np.add.reduce on contiguous doubles): eight running sums over
// blocks of up to 128, halves above that. The same bits as np.mean's sum, and no chain of
// dependent additions.
double pairwiseSum(const double* x, std::size_t n) {
  if (n < 8) {
    double sum = 0.0;
    for (std::size_t i = 0; i < n; ++i) sum += x[i];
    return sum;
  }
  if (n <= 128) {
    double r[8];
    for (std::size_t j = 0; j < 8; ++j) r[j] = x[j];
    std::size_t i = 8;
    for (; i < n - n % 8; i += 8) {
      for (std::size_t j = 0; j < 8; ++j) r[j] += x[i + j];
    }
    double sum = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i) sum += x[i];
    return sum;
  }
  std::size_t half = n / 2;
  half -= half % 8;
  return pairwiseSum(x, half) + pairwiseSum(x + half, n - half);
}

// The segment less its mean or its least-squares line.
void detrendSegment(double* x, std::size_t n, SegmentDetrend detrend) {
  if (detrend == SegmentDetrend::none || n == 0) return;
  const double mean = pairwiseSum(x, n) / static_cast<double>(n);
  if (detrend == SegmentDetrend::constant || n == 1) {
    for (std::size_t i = 0; i < n; ++i) x[i] -= mean;
    return;
  }
  const double centre = static_cast<double>(n - 1) / 2.0;
  double moment = 0.0, spread = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) - centre;
    moment += t * x[i];
    spread += t * t;
  }
  const double slope = moment / spread;
  for (std::size_t i = 0; i < n; ++i) x[i] -= mean + slope * (static_cast<double>(i) - centre);
}

}  // namespace

std::vector<double> scipyWindow(const std::string& name, double alpha, std::size_t n) {
  if (name == "tukey") return tukey(n, alpha);
  if (const std::optional<SpectrumWindow> w = parseSpectrumWindow(name)) return spectrumWindow(*w, n);
  throw std::invalid_argument("window must be one of tukey, hann, hamming, blackman, boxcar, got \"" + name + "\"");
}

// SciPy's t: the segment's centre, less nperseg / 2 (not the nperseg // 2 zeros padded: an odd
// nperseg's first frame is at 0) where stft padded the front.
double SpectrogramLayout::frameTime(std::uint64_t frame) const {
  const double half = static_cast<double>(nperseg) / 2.0;
  const double centre = half + static_cast<double>(frame * step);
  return (padFront > 0 ? centre - half : centre) / rate;
}

SpectrogramLayout spectrogramLayout(const SpectrogramOptions& o, std::uint64_t samples, std::optional<double> rate) {
  if (o.nperseg < 1 || o.nperseg > kMaxSegment) {
    throw std::invalid_argument("nperseg must be a whole number from 1 to " + text(kMaxSegment) + ", got " + text(o.nperseg));
  }
  if (rate && !(*rate > 0 && std::isfinite(*rate))) throw std::invalid_argument("the sample rate must be positive");
  SpectrogramLayout l;
  l.rate = rate.value_or(1.0);
  l.mode = o.stft ? SpectrogramMode::complex : o.mode;
  l.detrend = o.detrend;
  // SciPy's _triage_segments: a segment longer than the signal is cut to it.
  l.nperseg = samples == 0 ? o.nperseg : static_cast<std::size_t>(std::min<std::uint64_t>(o.nperseg, samples));
  l.nfft = o.nfft.value_or(l.nperseg);
  if (l.nfft < l.nperseg) {
    throw std::invalid_argument("nfft " + text(l.nfft) + " must be at least nperseg " + text(l.nperseg) +
                                (l.nperseg < o.nperseg ? " (nperseg cut to the signal's " + text(samples) + " samples)" : ""));
  }
  if (l.nfft > kMaxSegment) throw std::invalid_argument("nfft must be at most " + text(kMaxSegment) + ", got " + text(l.nfft));
  l.noverlap = o.noverlap.value_or(o.stft ? l.nperseg / 2 : l.nperseg / 8);
  if (l.noverlap >= l.nperseg) {
    throw std::invalid_argument("noverlap " + text(l.noverlap) + " must be less than nperseg " + text(l.nperseg) +
                                (l.nperseg < o.nperseg ? " (nperseg cut to the signal's " + text(samples) + " samples)" : ""));
  }
  l.step = l.nperseg - l.noverlap;
  l.frequencies = l.nfft / 2 + 1;
  l.planes = l.mode == SpectrogramMode::complex ? 2 : 1;
  l.window = scipyWindow(o.window, o.tukeyAlpha, l.nperseg);
  double sum = 0.0, squares = 0.0;
  for (const double w : l.window) {
    sum += w;
    squares += w * w;
  }
  l.scale = o.density ? 1.0 / (l.rate * squares) : 1.0 / (sum * sum);
  if (l.mode != SpectrogramMode::psd) l.scale = std::sqrt(l.scale);
  l.oneSidedDoubling = l.mode == SpectrogramMode::psd;
  if (samples == 0) return l;  // SciPy: empty arrays
  std::uint64_t length = samples;
  if (o.boundaryZeros) {
    l.padFront = l.nperseg / 2;
    l.padBack = l.nperseg / 2;
    length += 2 * (l.nperseg / 2);
  }
  if (o.padded) {  // (-(length - nperseg) % step) % nperseg, with Python's modulo
    const std::uint64_t rem = (length - l.nperseg) % l.step;
    const std::uint64_t add = (rem == 0 ? 0 : l.step - rem) % l.nperseg;
    l.padBack += add;
    length += add;
  }
  l.frames = length >= l.nperseg ? (length - l.nperseg) / l.step + 1 : 0;
  return l;
}

FrameTransform::FrameTransform(const SpectrogramLayout& layout) : layout_(layout) {
  in_ = static_cast<double*>(fftw_malloc(sizeof(double) * layout.nfft));
  spectrum_ = fftw_malloc(sizeof(fftw_complex) * layout.frequencies);
  if (!in_ || !spectrum_) {
    fftw_free(in_);
    fftw_free(spectrum_);
    throw std::bad_alloc();
  }
  plan_ = detail::realForwardPlan(layout.nfft);
}

FrameTransform::~FrameTransform() {
  fftw_free(in_);
  fftw_free(spectrum_);
}

void FrameTransform::run(const double* segment, double* out) {
  const SpectrogramLayout& l = layout_;
  if (l.detrend == SegmentDetrend::linear) {
    std::copy(segment, segment + l.nperseg, in_);
    detrendSegment(in_, l.nperseg, l.detrend);
    for (std::size_t i = 0; i < l.nperseg; ++i) in_[i] *= l.window[i];
  } else {  // one pass: less the mean (or nothing), times the window
    const double mean =
        l.detrend == SegmentDetrend::constant ? pairwiseSum(segment, l.nperseg) / static_cast<double>(l.nperseg) : 0.0;
    const double* w = l.window.data();
    for (std::size_t i = 0; i < l.nperseg; ++i) in_[i] = (segment[i] - mean) * w[i];
  }
  std::fill(in_ + l.nperseg, in_ + l.nfft, 0.0);
  auto* x = static_cast<fftw_complex*>(spectrum_);
  fftw_execute_dft_r2c(static_cast<fftw_plan>(plan_), in_, x);
  const std::size_t f = l.frequencies;
  switch (l.mode) {
    case SpectrogramMode::psd: {
      const std::size_t lastDoubled = l.nfft % 2 ? f : f - 1;  // bins [1, lastDoubled) doubled
      for (std::size_t k = 0; k < f; ++k) {
        double p = (x[k][0] * x[k][0] + x[k][1] * x[k][1]) * l.scale;
        if (k >= 1 && k < lastDoubled) p *= 2;
        out[k] = p;
      }
      break;
    }
    case SpectrogramMode::magnitude:
      for (std::size_t k = 0; k < f; ++k) out[k] = std::hypot(x[k][0] * l.scale, x[k][1] * l.scale);
      break;
    case SpectrogramMode::complex:
      for (std::size_t k = 0; k < f; ++k) {
        out[l.complexPairs ? 2 * k : k] = x[k][0] * l.scale;
        out[l.complexPairs ? 2 * k + 1 : f + k] = x[k][1] * l.scale;
      }
      break;
  }
}

std::vector<double> spectrogramReference(std::span<const double> x, const SpectrogramLayout& l) {
  std::vector<double> padded(l.padFront, 0.0);
  padded.insert(padded.end(), x.begin(), x.end());
  padded.resize(padded.size() + l.padBack, 0.0);
  const std::size_t f = l.frequencies;
  std::vector<double> out(l.frames * l.planes * f);
  std::vector<double> seg(l.nperseg);
  for (std::uint64_t frame = 0; frame < l.frames; ++frame) {
    std::copy_n(padded.begin() + static_cast<std::ptrdiff_t>(frame * l.step), l.nperseg, seg.begin());
    detrendSegment(seg.data(), l.nperseg, l.detrend);
    double* row = out.data() + frame * l.planes * f;
    for (std::size_t k = 0; k < f; ++k) {
      long double re = 0, im = 0;
      for (std::size_t i = 0; i < l.nperseg; ++i) {
        const long double angle = -2.0L * std::numbers::pi_v<long double> * static_cast<long double>((k * i) % l.nfft) /
                                  static_cast<long double>(l.nfft);
        const long double v = seg[i] * l.window[i];
        re += v * std::cos(angle);
        im += v * std::sin(angle);
      }
      if (l.mode == SpectrogramMode::psd) {
        long double p = (re * re + im * im) * l.scale;
        if (k >= 1 && k < (l.nfft % 2 ? f : f - 1)) p *= 2;
        row[k] = static_cast<double>(p);
      } else if (l.mode == SpectrogramMode::magnitude) {
        row[k] = static_cast<double>(std::sqrt(re * re + im * im) * l.scale);
      } else {
        row[k] = static_cast<double>(re * l.scale);
        row[f + k] = static_cast<double>(im * l.scale);
      }
    }
  }
  return out;
}

}  // namespace siglab
