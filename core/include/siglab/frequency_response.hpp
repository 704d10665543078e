#pragma once
#include <complex>
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

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

}  // namespace siglab
