#pragma once
#include <complex>
#include <cstddef>
#include <cstdint>
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

// The most frequencies a response is computed at.
inline constexpr std::size_t kMaxResponsePoints = std::size_t{1} << 24;

// Throws std::invalid_argument for no taps, no points (or more than kMaxResponsePoints) or an invalid
// rate. Its work is bounded by the grid whatever the taps: taps 2 points apart meet the same
// exp(-i w j) and are added first, and past work_bounds' kMaxLongWindowWork multiply-adds the sums
// are one FFT of length 2 points.
FrequencyResponse firResponse(std::span<const double> taps, std::size_t points,
                              std::optional<double> sampleRate = std::nullopt);

// The response of the mean of `window` taps (1/W each; odd, up to work_bounds' kMaxWindow), as
// firResponse of those taps, without ever holding W taps.
FrequencyResponse meanResponse(std::uint64_t window, std::size_t points,
                               std::optional<double> sampleRate = std::nullopt);

// Second-order sections' response on the same grid, as scipy.signal.sosfreqz(sos, worN=points):
// the product over sections of (b0 + b1 z^-1 + b2 z^-2) / (a0 + a1 z^-1 + a2 z^-2), z = exp(i w).
// zeroPhase: the forward-backward run's |H|^2 (real, phase 0), as sosfiltfilt applies it.
FrequencyResponse sosResponse(const Sections& sections, std::size_t points, bool zeroPhase,
                              std::optional<double> sampleRate = std::nullopt);

}  // namespace siglab
