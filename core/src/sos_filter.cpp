#include "siglab/sos_filter.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "sos_step.hpp"

namespace siglab {
namespace {

void checkSections(const Sections& sections) {
  if (sections.empty()) throw std::invalid_argument("a filter needs at least one second-order section");
  for (const Section& s : sections) {
    if (s[3] != 1.0) throw std::invalid_argument("second-order sections must be normalised (a0 = 1)");
  }
}

double maxAbsOf(const SosState& z) {
  double m = 0;
  for (double v : z) m = std::max(m, std::abs(v));
  return m;
}

// Sum over n of `measure(step n)` for the cascade run from state `z` with input `first` then zeros,
// until the state has stayed below 1e-17 of its peak for 64 steps. False if that takes too long.
template <typename Measure>
bool sumResponse(const Sections& sections, SosState z, double first, Measure&& measure) {
  constexpr std::size_t kMaxSteps = std::size_t{1} << 20;
  double peak = 0;
  std::size_t quiet = 0;
  for (std::size_t n = 0; n < kMaxSteps; ++n) {
    const double y = detail::sosStep(sections.data(), sections.size(), z.data(), n == 0 ? first : 0.0);
    measure(y, z);
    const double size = maxAbsOf(z);
    peak = std::max(peak, size);
    quiet = size <= 1e-17 * peak ? quiet + 1 : 0;
    if (quiet >= 64) return true;
  }
  return false;
}

}  // namespace

SosState sosfiltZi(const Sections& sections) {
  checkSections(sections);
  SosState zi(2 * sections.size());
  double scale = 1.0;
  for (std::size_t k = 0; k < sections.size(); ++k) {
    const Section& s = sections[k];
    // lfilter_zi for one section: (I - companion(a)^T) z = b[1:] - a[1:] b0, solved in closed form.
    const double b0 = s[0], b1 = s[1], b2 = s[2], a1 = s[4], a2 = s[5];
    const double r0 = b1 - a1 * b0, r1 = b2 - a2 * b0;
    const double z0 = (r0 + r1) / (1 + a1 + a2);
    zi[2 * k] = scale * z0;
    zi[2 * k + 1] = scale * (r1 - a2 * z0);
    scale *= (b0 + b1 + b2) / (1 + a1 + a2);
  }
  return zi;
}

void sosfilt(const Sections& sections, std::span<const double> in, std::span<double> out, SosState& state) {
  checkSections(sections);
  if (in.size() != out.size()) throw std::invalid_argument("sosfilt: input and output sizes differ");
  if (state.empty()) state.assign(2 * sections.size(), 0.0);
  if (state.size() != 2 * sections.size()) throw std::invalid_argument("sosfilt: the state needs 2 values per section");
  detail::sosRange(sections.data(), sections.size(), state.data(), in.data(), out.data(), 1, in.size());
}

std::size_t sosfiltfiltPadLength(const Sections& sections) {
  const auto zeroB2 = std::count_if(sections.begin(), sections.end(), [](const Section& s) { return s[2] == 0; });
  const auto zeroA2 = std::count_if(sections.begin(), sections.end(), [](const Section& s) { return s[5] == 0; });
  return 3 * (2 * sections.size() + 1 - static_cast<std::size_t>(std::min(zeroB2, zeroA2)));
}

void sosfiltfilt(const Sections& sections, std::span<const double> in, std::span<double> out) {
  checkSections(sections);
  if (in.size() != out.size()) throw std::invalid_argument("sosfiltfilt: input and output sizes differ");
  const std::size_t n = in.size(), edge = sosfiltfiltPadLength(sections);
  if (n <= edge) {
    throw std::invalid_argument("zero-phase filtering needs more than " + std::to_string(edge) +
                                " samples (3 x (2 x sections + 1)); the signal has " + std::to_string(n));
  }
  // Odd extension: 2 x[0] - x[edge..1] | x | 2 x[n-1] - x[n-2..n-1-edge].
  std::vector<double> y(n + 2 * edge);
  for (std::size_t j = 0; j < edge; ++j) {
    y[j] = 2 * in[0] - in[edge - j];
    y[edge + n + j] = 2 * in[n - 1] - in[n - 2 - j];
  }
  std::copy(in.begin(), in.end(), y.begin() + static_cast<std::ptrdiff_t>(edge));
  const SosState zi = sosfiltZi(sections);
  SosState state(zi.size());
  std::transform(zi.begin(), zi.end(), state.begin(), [&](double z) { return z * y.front(); });
  sosfilt(sections, y, y, state);
  std::reverse(y.begin(), y.end());
  std::transform(zi.begin(), zi.end(), state.begin(), [&](double z) { return z * y.front(); });
  sosfilt(sections, y, y, state);
  std::reverse(y.begin(), y.end());
  std::copy_n(y.begin() + static_cast<std::ptrdiff_t>(edge), n, out.begin());
}

SosGains sosGains(const Sections& sections) {
  checkSections(sections);
  const std::size_t states = 2 * sections.size();
  SosGains gains;
  std::vector<double> perState(states, 0.0);
  gains.decayed = sumResponse(sections, SosState(states, 0.0), 1.0, [&](double y, const SosState& z) {
    gains.inputToOutput += std::abs(y);
    for (std::size_t i = 0; i < states; ++i) perState[i] += std::abs(z[i]);
  });
  gains.inputToState = *std::max_element(perState.begin(), perState.end());
  for (std::size_t i = 0; i < states && gains.decayed; ++i) {
    SosState unit(states, 0.0);
    unit[i] = 1.0;
    gains.decayed = sumResponse(sections, unit, 0.0, [&](double y, const SosState&) { gains.stateToOutput += std::abs(y); });
  }
  return gains;
}

double sosScanErrorBound(const Sections& sections, const SosGains& gains, double maxAbsInput, double maxAbsInitial) {
  double coefficient = 0;
  for (const Section& s : sections) {
    for (double c : s) coefficient = std::max(coefficient, std::abs(c));
  }
  const double eps = std::numeric_limits<double>::epsilon();
  const double stateScale = std::max(maxAbsInput, 2 * gains.inputToState * maxAbsInput + maxAbsInitial);
  return (3 * 4 * (1 + coefficient) + 1) * eps * stateScale * gains.stateToOutput;
}

}  // namespace siglab
