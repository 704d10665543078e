#pragma once
#include <complex>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "siglab/butterworth.hpp"

namespace siglab {

// An FIR filter's response at `points` frequencies from 0 up to (not including) Nyquist, as
// scipy.signal.freqz(taps, worN=points) gives it: H(w) = sum_j taps[j] exp(-i w j) at
// w_k = pi k / points. The frequency is w / (2 pi) times the rate (cycles per sample without one).
struct FrequencyResponse {
  std::vector<double> frequency;
  std::vector<std::complex<double>> response;

  std::vector<double> magnitudeDb() const;  // 20 log10 |H|; -inf where H is 0
  std::vector<double> phase() const;        // arg H in radians, in (-pi, pi]
};

// Throws std::invalid_argument for no taps, no points or an invalid rate.
FrequencyResponse firResponse(std::span<const double> taps, std::size_t points,
                              std::optional<double> sampleRate = std::nullopt);

// Second-order sections' response on the same grid, as scipy.signal.sosfreqz(sos, worN=points):
// the product over sections of (b0 + b1 z^-1 + b2 z^-2) / (a0 + a1 z^-1 + a2 z^-2), z = exp(i w).
// zeroPhase: the forward-backward run's |H|^2 (real, phase 0), as sosfiltfilt applies it.
FrequencyResponse sosResponse(const Sections& sections, std::size_t points, bool zeroPhase,
                              std::optional<double> sampleRate = std::nullopt);

}  // namespace siglab
