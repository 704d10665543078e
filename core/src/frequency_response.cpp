#include "siglab/frequency_response.hpp"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "siglab/sample_rate.hpp"

namespace siglab {

FrequencyResponse firResponse(std::span<const double> taps, std::size_t points, std::optional<double> sampleRate) {
  if (taps.empty()) throw std::invalid_argument("the filter has no taps");
  if (points == 0) throw std::invalid_argument("the response needs at least one frequency");
  if (sampleRate) checkSampleRate(*sampleRate, "the rate");
  // exp(-i pi m / points) for m = 0..2 points - 1; tap j at frequency k uses m = j k mod 2 points,
  // so no angle grows past 2 pi and loses digits.
  const std::size_t period = 2 * points;
  std::vector<std::complex<double>> roots(period);
  for (std::size_t m = 0; m < period; ++m) {
    const double angle = -std::numbers::pi * static_cast<double>(m) / static_cast<double>(points);
    roots[m] = {std::cos(angle), std::sin(angle)};
  }
  FrequencyResponse result;
  result.frequency.resize(points);
  result.response.resize(points);
  const double rate = sampleRate.value_or(1.0);
#pragma omp parallel for schedule(static)
  for (std::size_t k = 0; k < points; ++k) {
    std::complex<double> sum = 0.0;
    for (std::size_t j = 0; j < taps.size(); ++j) sum += taps[j] * roots[(j * k) % period];
    result.response[k] = sum;
    result.frequency[k] = static_cast<double>(k) / static_cast<double>(period) * rate;
  }
  return result;
}

FrequencyResponse sosResponse(const Sections& sections, std::size_t points, bool zeroPhase,
                              std::optional<double> sampleRate) {
  if (sections.empty()) throw std::invalid_argument("the filter has no sections");
  if (points == 0) throw std::invalid_argument("the response needs at least one frequency");
  if (sampleRate) checkSampleRate(*sampleRate, "the rate");
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
