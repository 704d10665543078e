#pragma once
// scipy.signal.spectrogram and scipy.signal.stft (SciPy 1.10): segments of nperseg samples every
// nperseg - noverlap, each detrended, windowed (periodic, as get_window gives) and transformed by
// FFTW (nfft points, one-sided), as power (psd), magnitude or complex values. Shapes and defaults
// exactly SciPy's: nperseg is cut to the signal's length where longer (SciPy warns and does so),
// a tail shorter than a segment is dropped, stft pads nperseg / 2 zeros at both ends and zeros up
// to a whole segment (boundary 'zeros', padded True).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace siglab {

/// What a spectrogram's values are: power, magnitude or complex (SciPy's mode).
enum class SpectrogramMode { psd, magnitude, complex };
/// What is removed from each segment first: nothing, its mean or its least-squares line.
enum class SegmentDetrend { none, constant, linear };

/// A spectrogram's or an STFT's options, as scipy.signal.spectrogram's and stft's arguments.
struct SpectrogramOptions {
  std::string window = "tukey";  // boxcar, hann, hamming, blackman, tukey
  double tukeyAlpha = 0.25;      // SciPy's ('tukey', .25)
  std::size_t nperseg = 256;
  std::optional<std::size_t> noverlap;  // SciPy's None: nperseg / 8 (spectrogram), nperseg / 2 (stft)
  std::optional<std::size_t> nfft;      // None: nperseg
  SegmentDetrend detrend = SegmentDetrend::constant;
  bool density = true;  // scaling 'density' (stft: 'psd'), else 'spectrum'
  SpectrogramMode mode = SpectrogramMode::psd;
  bool stft = false;      // scipy.signal.stft: complex, noverlap default nperseg / 2, amplitude scaling
  bool boundaryZeros = false;  // stft's boundary 'zeros' (else None)
  bool padded = false;         // stft's padded
};

// Options resolved against a signal of `samples` samples at `rate` (Hz; 1 without one).
struct SpectrogramLayout {
  std::size_t nperseg = 0, noverlap = 0, step = 1, nfft = 0;
  std::size_t frequencies = 0;  // nfft / 2 + 1
  std::size_t planes = 1;       // values per frequency: 1, or 2 for complex (re, im)
  std::uint64_t frames = 0;
  std::uint64_t padFront = 0, padBack = 0;  // stft's zeros before and after the signal
  std::vector<double> window;
  double scale = 1.0;  // |X|^2 (psd) or X (magnitude, complex) is multiplied by it
  double rate = 1.0;
  SpectrogramMode mode = SpectrogramMode::psd;
  SegmentDetrend detrend = SegmentDetrend::constant;
  bool oneSidedDoubling = false;  // psd: bins 1..F-2 (1..F-1 for odd nfft) doubled
  bool complexPairs = false;      // complex: (re, im) per frequency (NumPy's complex128), not two planes

  double frameTime(std::uint64_t frame) const;  // SciPy's t[frame], seconds (samples without a rate)
};

// Throws std::invalid_argument naming the parameter and its valid range, in SciPy's terms
// ("noverlap 256 must be less than nperseg 256", "nfft 100 must be at least nperseg 256").
SpectrogramLayout spectrogramLayout(const SpectrogramOptions& options, std::uint64_t samples, std::optional<double> rate);

// scipy.signal.get_window(name, n) (periodic); tukey with `alpha`. Throws std::invalid_argument
// for an unknown name.
std::vector<double> scipyWindow(const std::string& name, double alpha, std::size_t n);

// Transforms frames of one channel: `segment` holds nperseg samples, `out` planes x frequencies
// values (re then im for complex). One per thread (it holds FFTW arrays).
class FrameTransform {
 public:
  explicit FrameTransform(const SpectrogramLayout& layout);
  ~FrameTransform();
  FrameTransform(const FrameTransform&) = delete;
  FrameTransform& operator=(const FrameTransform&) = delete;
  void run(const double* segment, double* out);

 private:
  const SpectrogramLayout& layout_;
  double* in_ = nullptr;
  void* spectrum_ = nullptr;  // fftw_complex[frequencies]
  void* plan_ = nullptr;      // fftw_plan
};

// The reference: every frame of `x` (the signal itself, without stft's padding applied: it is
// added here), frames x planes x frequencies, one thread, a direct DFT in long double (tests).
std::vector<double> spectrogramReference(std::span<const double> x, const SpectrogramLayout& layout);

}  // namespace siglab
