#include "siglab/sos_scan_steps.hpp"

#include <stdexcept>

namespace siglab {
namespace {

std::vector<double> multiply(const std::vector<double>& a, const std::vector<double>& b, int d) {
  std::vector<double> c(a.size(), 0.0);
  for (int i = 0; i < d; ++i) {
    for (int k = 0; k < d; ++k) {
      const double aik = a[i * d + k];
      for (int j = 0; j < d; ++j) c[i * d + j] += aik * b[k * d + j];
    }
  }
  return c;
}

}  // namespace

std::vector<double> flatCoefficients(const Sections& sections) {
  std::vector<double> flat;
  for (const Section& s : sections) flat.insert(flat.end(), s.begin(), s.end());
  return flat;
}

std::vector<double> sosTransitionPower(const Sections& sections, std::int64_t steps) {
  const std::vector<double> c = flatCoefficients(sections);
  const int count = static_cast<int>(sections.size()), d = 2 * count;
  // Column j of A: one zero-input step from the unit state e_j.
  std::vector<double> a(static_cast<std::size_t>(d * d)), power(static_cast<std::size_t>(d * d), 0.0);
  for (int j = 0; j < d; ++j) {
    std::vector<double> z(static_cast<std::size_t>(d), 0.0);
    z[j] = 1.0;
    sosStepFlat(c.data(), count, z.data(), 0.0);
    for (int i = 0; i < d; ++i) a[i * d + j] = z[i];
  }
  for (int i = 0; i < d; ++i) power[i * d + i] = 1.0;
  for (std::int64_t e = steps; e > 0; e >>= 1) {  // binary powering
    if (e & 1) power = multiply(power, a, d);
    if (e > 1) a = multiply(a, a, d);
  }
  return power;
}

void sosCarryChunkStarts(std::span<const double> power, int states, std::span<const double> ends,
                         std::span<const double> initial, std::span<double> starts) {
  const auto d = static_cast<std::size_t>(states);
  if (ends.size() != starts.size() || ends.size() % d != 0 || initial.size() != d || power.size() != d * d) {
    throw std::invalid_argument("sosCarryChunkStarts: sizes do not match the state count");
  }
  const std::size_t chunks = ends.size() / d;
  if (chunks == 0) return;
  std::copy(initial.begin(), initial.end(), starts.begin());
  for (std::size_t b = 1; b < chunks; ++b) {
    const double* previous = starts.data() + (b - 1) * d;
    for (std::size_t i = 0; i < d; ++i) {
      double carried = 0.0;
      if (b > 1) {  // chunk 0 ran from its true start already: its end is the true state
        for (std::size_t k = 0; k < d; ++k) carried += power[i * d + k] * previous[k];
      }
      starts[b * d + i] = ends[(b - 1) * d + i] + carried;
    }
  }
}

}  // namespace siglab
