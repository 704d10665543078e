#pragma once
// Welch's averaged periodogram with scipy.signal.welch's definitions: segments of `segment`
// samples starting every segment - overlap samples (a tail shorter than a segment is dropped),
// each detrended, multiplied by the periodic window and transformed (FFT length = segment);
// |X_k|^2 averaged over the segments, scaled, and folded to one side (bins 1..F-2, or 1..F-1 for
// an odd segment, doubled), F = segment / 2 + 1 frequencies k * rate / segment.
#include <cstddef>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/progress.hpp"

namespace siglab {

/// The window each segment is multiplied by (scipy.signal.get_window's names).
enum class SpectrumWindow { hann, hamming, blackman, boxcar };
/// What the power is per: per Hz or per frequency bin (welch's scaling).
enum class SpectrumScaling {
  density,   // power per Hz: divided by rate * sum(w^2) (V^2/Hz)
  spectrum,  // power per bin: divided by sum(w)^2 (V^2), a tone's peak reads its power
};
enum class Detrend { constant, none };  // constant: each segment's mean removed first

/// A Welch spectrum's options, as scipy.signal.welch's arguments.
struct WelchOptions {
  std::size_t segment = 256;
  std::optional<std::size_t> overlap;  // samples shared by neighbouring segments; default segment / 2
  SpectrumWindow window = SpectrumWindow::hann;
  SpectrumScaling scaling = SpectrumScaling::density;
  Detrend detrend = Detrend::constant;
  std::optional<double> sampleRate;  // Hz; without one, frequencies are cycles per sample (rate 1)

  std::size_t overlapOrDefault() const { return overlap.value_or(segment / 2); }
};

// A one-sided spectrum: frequency[k] (Hz, or cycles per sample) and power[k].
struct Spectrum {
  std::vector<double> frequency;
  std::vector<double> power;
};

// A bad option: which one (as the CLI spells it, "--segment"), what was wrong and the allowed range.
class SpectrumOptionError : public std::invalid_argument {
 public:
  SpectrumOptionError(std::string option, const std::string& what)
      : std::invalid_argument(what), option_(std::move(option)) {}
  const std::string& option() const { return option_; }

 private:
  std::string option_;
};

// Throws SpectrumOptionError unless a spectrum of `samples` samples can be computed with `options`:
// 1 <= segment <= samples, overlap < segment, a valid rate.
void validate(const WelchOptions& options, std::size_t samples);

/// The window's name, as parseSpectrumWindow reads it ("hann").
std::string_view toString(SpectrumWindow window);
std::optional<SpectrumWindow> parseSpectrumWindow(std::string_view name);

// scipy.signal.get_window(name, n) (periodic: the symmetric window of n + 1 points, last dropped).
std::vector<double> spectrumWindow(SpectrumWindow window, std::size_t n);

// The number of segments, the frequency count F and the factor |X_k|^2 is multiplied by (before
// the one-sided doubling and the average over segments).
std::size_t segmentCount(const WelchOptions& options, std::size_t samples);
std::size_t frequencyCount(const WelchOptions& options);
double powerScale(const WelchOptions& options);

// The frequencies of the F bins: k * rate / segment (rate 1 without a rate).
std::vector<double> spectrumFrequencies(const WelchOptions& options);

// The reference: a direct DFT of each segment summed in long double, one thread; O(segment^2) a
// segment, for tests. Both functions validate first.
Spectrum welchReference(std::span<const double> x, const WelchOptions& options);

// FFTW real-to-complex transforms of the segments on every core (plans made once per length and
// reused). Within spectrumAgreementBound() of the reference. `progress` hears of the segments done
// (from any thread); Cancel is seen between segments and throws Cancelled.
Spectrum welch(std::span<const double> x, const WelchOptions& options, const Progress& progress = {});

// The largest |difference| expected between two correct double-precision computations of one
// bin (FFTW, cuFFT, the reference) of a signal of `samples` samples within +-maxAbsInput.
// Derivation in spectrum_bound.cpp.
double spectrumAgreementBound(const WelchOptions& options, double maxAbsInput, std::size_t samples);

// 10 log10(power) for plotting, with zeros (and anything 300 dB below the peak) at peak - 300 dB.
std::vector<double> powerToDecibels(std::span<const double> power);

// Turns the per-bin sums of |X_k|^2 over `segments` segments into the one-sided spectrum's powers
// (shared by the CPU and GPU engines).
void finishPower(std::span<double> sums, const WelchOptions& options, std::size_t segments);

}  // namespace siglab
