#include "siglab/frequency_response.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "fftw_plans.hpp"
#include "siglab/sample_rate.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {

namespace {

void checkGrid(std::size_t points, std::optional<double> sampleRate) {
  if (points == 0) throw std::invalid_argument("the response needs at least one frequency");
  if (points > kMaxResponsePoints) {
    throw std::invalid_argument("the response takes at most " + std::to_string(kMaxResponsePoints) +
                                " frequencies, got " + std::to_string(points));
  }
  if (sampleRate) checkSampleRate(*sampleRate, "the rate");
}

FrequencyResponse emptyGrid(std::size_t points, std::optional<double> sampleRate) {
  FrequencyResponse result;
  result.frequency.resize(points);
  result.response.resize(points);
  const double rate = sampleRate.value_or(1.0);
  for (std::size_t k = 0; k < points; ++k) {
    result.frequency[k] = static_cast<double>(k) / static_cast<double>(2 * points) * rate;
  }
  return result;
}

// sum_j taps[j] exp(-i pi j k / points) term by term: exp(-i pi m / points) for m = 0..2 points - 1;
// tap j at frequency k uses m = j k mod 2 points, so no angle grows past 2 pi and loses digits.
FrequencyResponse directResponse(std::span<const double> taps, std::size_t points, std::optional<double> sampleRate) {
  const std::size_t period = 2 * points;
  std::vector<std::complex<double>> roots(period);
  for (std::size_t m = 0; m < period; ++m) {
    const double angle = -std::numbers::pi * static_cast<double>(m) / static_cast<double>(points);
    roots[m] = {std::cos(angle), std::sin(angle)};
  }
  FrequencyResponse result = emptyGrid(points, sampleRate);
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < points; ++k) {
    std::complex<double> sum = 0.0;
    for (std::size_t j = 0; j < taps.size(); ++j) sum += taps[j] * roots[(j * k) % period];
    result.response[k] = sum;
  }
  return result;
}

// The same sums as one real FFT of length 2 points: O(points log points) whatever the taps.
FrequencyResponse fftResponse(std::span<const double> folded, std::size_t points, std::optional<double> sampleRate) {
  const std::size_t period = 2 * points;
  auto frame = detail::makeFftwArray<double>(period);
  auto transform = detail::makeFftwArray<fftw_complex>(points + 1);
  for (std::size_t m = 0; m < period; ++m) frame[m] = m < folded.size() ? folded[m] : 0.0;
  fftw_execute_dft_r2c(detail::realForwardPlan(period), frame.get(), transform.get());
  FrequencyResponse result = emptyGrid(points, sampleRate);
  for (std::size_t k = 0; k < points; ++k) result.response[k] = {transform[k][0], transform[k][1]};
  return result;
}

// Taps of a period-2P grid's response (at most 2P of them) the direct sums or the FFT take.
FrequencyResponse responseOfFolded(std::span<const double> folded, std::size_t points, std::optional<double> sampleRate) {
  if (folded.size() <= kMaxLongWindowWork / points) return directResponse(folded, points, sampleRate);
  return fftResponse(folded, points, sampleRate);
}

}  // namespace

FrequencyResponse firResponse(std::span<const double> taps, std::size_t points, std::optional<double> sampleRate) {
  if (taps.empty()) throw std::invalid_argument("the filter has no taps");
  checkGrid(points, sampleRate);
  const std::size_t period = 2 * points;
  if (taps.size() <= period) return responseOfFolded(taps, points, sampleRate);
  // exp(-i pi j k / points) repeats every 2 points taps: taps that far apart add up first.
  std::vector<double> folded(period, 0.0);
  for (std::size_t j = 0; j < taps.size(); ++j) folded[j % period] += taps[j];
  return responseOfFolded(folded, points, sampleRate);
}

FrequencyResponse meanResponse(std::uint64_t window, std::size_t points, std::optional<double> sampleRate) {
  if (window == 0 || window % 2 == 0 || window > kMaxWindow) {
    throw std::invalid_argument("window must be an odd number from 1 to 2^62 - 1, got " + std::to_string(window));
  }
  checkGrid(points, sampleRate);
  // Tap positions m, m + 2P, m + 4P, ... below W fold onto m: never more than 2P values held.
  const std::uint64_t period = 2 * static_cast<std::uint64_t>(points);
  std::vector<double> folded(static_cast<std::size_t>(std::min(window, period)));
  for (std::size_t m = 0; m < folded.size(); ++m) {
    folded[m] = static_cast<double>((window - 1 - m) / period + 1) / static_cast<double>(window);
  }
  return responseOfFolded(folded, points, sampleRate);
}

FrequencyResponse sosResponse(const Sections& sections, std::size_t points, bool zeroPhase,
                              std::optional<double> sampleRate) {
  if (sections.empty()) throw std::invalid_argument("the filter has no sections");
  checkGrid(points, sampleRate);
  FrequencyResponse result;
  result.frequency.resize(points);
  result.response.resize(points);
  const double rate = sampleRate.value_or(1.0);
  for (std::size_t k = 0; k < points; ++k) {
    const double w = std::numbers::pi * static_cast<double>(k) / static_cast<double>(points);
    const std::complex<double> z1 = std::polar(1.0, -w), z2 = std::polar(1.0, -2 * w);
    std::complex<double> h = 1.0;
    for (const Section& s : sections) h *= (s[0] + s[1] * z1 + s[2] * z2) / (s[3] + s[4] * z1 + s[5] * z2);
    result.response[k] = zeroPhase ? std::complex<double>(std::norm(h), 0.0) : h;
    result.frequency[k] = w / (2 * std::numbers::pi) * rate;
  }
  return result;
}

std::vector<double> FrequencyResponse::magnitudeDb() const {
  std::vector<double> db(response.size());
  for (std::size_t k = 0; k < db.size(); ++k) db[k] = 20.0 * std::log10(std::abs(response[k]));
  return db;
}

std::vector<double> FrequencyResponse::phase() const {
  std::vector<double> radians(response.size());
  for (std::size_t k = 0; k < radians.size(); ++k) radians[k] = std::arg(response[k]);
  return radians;
}

}  // namespace siglab
