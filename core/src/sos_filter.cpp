#include "siglab/sos_filter.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>

#include "siglab/work_progress.hpp"
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

// One step of the cascade that also reports each section's output.
double stepReporting(const Sections& sections, SosState& z, double x, std::vector<double>& sectionOutput) {
  for (std::size_t k = 0; k < sections.size(); ++k) {
    x = detail::sosStep(&sections[k], 1, z.data() + 2 * k, x);
    sectionOutput[k] = x;
  }
  return x;
}

// Calls measure(y, z, section outputs) for every step of the cascade run from state `z` with input
// `first` then zeros, until the state has stayed below 1e-17 of its peak for 64 steps. False if
// that takes too long.
template <typename Measure>
bool sumResponse(const Sections& sections, SosState z, double first, Measure&& measure) {
  constexpr std::size_t kMaxSteps = std::size_t{1} << 20;
  std::vector<double> sectionOutput(sections.size());
  double peak = 0;
  std::size_t quiet = 0;
  for (std::size_t n = 0; n < kMaxSteps; ++n) {
    const double y = stepReporting(sections, z, n == 0 ? first : 0.0, sectionOutput);
    measure(y, z, sectionOutput);
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

void sosfilt(const Sections& sections, std::span<const double> in, std::span<double> out, SosState& state,
             const Progress& progress) {
  checkSections(sections);
  if (in.size() != out.size()) throw std::invalid_argument("sosfilt: input and output sizes differ");
  if (state.empty()) state.assign(2 * sections.size(), 0.0);
  if (state.size() != 2 * sections.size()) throw std::invalid_argument("sosfilt: the state needs 2 values per section");
  WorkProgress work(progress, in.size());
  if (!detail::sosRangeChecked(sections.data(), sections.size(), state.data(), in.data(), out.data(), 1, in.size(), work)) {
    throw Cancelled();
  }
}

double sosFadeLength(const Sections& sections) {
  checkSections(sections);
  double radius = 0;  // the largest |pole|: roots of z^2 + a1 z + a2
  for (const Section& s : sections) {
    const double a1 = s[4], a2 = s[5], discriminant = a1 * a1 - 4 * a2;
    radius = std::max(radius, discriminant < 0 ? std::sqrt(a2) : (std::abs(a1) + std::sqrt(discriminant)) / 2);
  }
  if (radius == 0) return 0;
  if (!(radius < 1)) return std::numeric_limits<double>::infinity();
  return 53 * std::log(2.0) / -std::log(radius);
}

std::size_t sosfiltfiltPadLength(const Sections& sections) {
  const auto zeroB2 = std::count_if(sections.begin(), sections.end(), [](const Section& s) { return s[2] == 0; });
  const auto zeroA2 = std::count_if(sections.begin(), sections.end(), [](const Section& s) { return s[5] == 0; });
  return 3 * (2 * sections.size() + 1 - static_cast<std::size_t>(std::min(zeroB2, zeroA2)));
}

void sosfiltfilt(const Sections& sections, std::span<const double> in, std::span<double> out,
                 const Progress& progress) {
  checkSections(sections);
  if (in.size() != out.size()) throw std::invalid_argument("sosfiltfilt: input and output sizes differ");
  const std::size_t n = in.size(), edge = sosfiltfiltPadLength(sections);
  if (n <= edge) {
    throw std::invalid_argument("zero-phase filtering needs more than " + std::to_string(edge) +
                                " samples (3 x (2 x sections + 1)); the signal has " + std::to_string(n));
  }
  // The odd extension 2 x[0] - x[edge..1] | x | 2 x[n-1] - x[n-2..n-1-edge], its middle run in
  // `out` itself; the backward pass runs backwards (stride -1) instead of reversing: the same
  // steps, so the same bits, without a copy of the signal.
  std::vector<double> left(edge), right(edge);
  for (std::size_t j = 0; j < edge; ++j) {
    left[j] = 2 * in[0] - in[edge - j];
    right[j] = 2 * in[n - 1] - in[n - 2 - j];
  }
  WorkProgress work(progress, 2 * n + 3 * edge);
  const auto run = [&](SosState& z, const double* x, double* y, std::ptrdiff_t stride, std::size_t count) {
    if (!detail::sosRangeChecked(sections.data(), sections.size(), z.data(), x, y, stride, count, work)) throw Cancelled();
  };
  const SosState zi = sosfiltZi(sections);
  SosState state(zi.size());
  std::transform(zi.begin(), zi.end(), state.begin(), [&](double z) { return z * left.front(); });
  run(state, left.data(), left.data(), 1, edge);
  run(state, in.data(), out.data(), 1, n);
  run(state, right.data(), right.data(), 1, edge);
  std::transform(zi.begin(), zi.end(), state.begin(), [&](double z) { return z * right.back(); });
  run(state, right.data() + edge - 1, right.data() + edge - 1, -1, edge);
  run(state, out.data() + n - 1, out.data() + n - 1, -1, n);
  // The left end's backward outputs are no part of the result.
}

namespace {

SosGains computeSosGains(const Sections& sections) {
  const std::size_t states = 2 * sections.size(), count = sections.size();
  SosGains gains;
  gains.stateFromInput.assign(states, 0.0);
  gains.sectionFromInput.assign(count, 0.0);
  gains.stateFromState.assign(states, 0.0);
  gains.sectionFromState.assign(count, 0.0);
  gains.outputFromState.assign(states, 0.0);
  gains.decayed = sumResponse(sections, SosState(states, 0.0), 1.0,
                              [&](double y, const SosState& z, const std::vector<double>& sectionOutput) {
                                gains.inputToOutput += std::abs(y);
                                for (std::size_t i = 0; i < states; ++i) gains.stateFromInput[i] += std::abs(z[i]);
                                for (std::size_t k = 0; k < count; ++k) gains.sectionFromInput[k] += std::abs(sectionOutput[k]);
                              });
  gains.inputToState = *std::max_element(gains.stateFromInput.begin(), gains.stateFromInput.end());
  for (std::size_t j = 0; j < states && gains.decayed; ++j) {
    SosState unit(states, 0.0);
    unit[j] = 1.0;
    std::vector<double> stateMax(unit), sectionMax(count, 0.0);  // the start state counts as a state value
    gains.decayed = sumResponse(sections, unit, 0.0, [&](double y, const SosState& z, const std::vector<double>& sectionOutput) {
      gains.outputFromState[j] += std::abs(y);
      for (std::size_t i = 0; i < states; ++i) stateMax[i] = std::max(stateMax[i], std::abs(z[i]));
      for (std::size_t k = 0; k < count; ++k) sectionMax[k] = std::max(sectionMax[k], std::abs(sectionOutput[k]));
    });
    for (std::size_t i = 0; i < states; ++i) gains.stateFromState[i] += stateMax[i];
    for (std::size_t k = 0; k < count; ++k) gains.sectionFromState[k] += sectionMax[k];
    gains.stateToOutput += gains.outputFromState[j];
  }
  return gains;
}

// The last gains computed, with their sections: 1 + 2 x sections impulse responses run to decay
// cost about a millisecond, and one verified run asks for its sections' several times (the
// warm-up, the engine's tolerance, the restart's), and a repeated call again.
struct KeptGains {
  static constexpr std::size_t kKept = 8;
  std::mutex mutex;
  std::deque<std::pair<Sections, SosGains>> kept;  // oldest first
};

KeptGains& keptGains() {
  static auto* const kept = new KeptGains;  // never destroyed: a check may run during exit
  return *kept;
}

}  // namespace

SosGains sosGains(const Sections& sections) {
  checkSections(sections);
  KeptGains& k = keptGains();
  {
    const std::lock_guard lock(k.mutex);
    for (const auto& [kept, gains] : k.kept) {
      if (kept == sections) return gains;
    }
  }
  SosGains gains = computeSosGains(sections);
  const std::lock_guard lock(k.mutex);
  k.kept.emplace_back(sections, gains);
  if (k.kept.size() > KeptGains::kKept) k.kept.pop_front();
  return gains;
}

SosMagnitudes sosMagnitudes(const SosGains& gains, double maxAbsInput, double maxAbsInitial) {
  SosMagnitudes m;
  for (std::size_t i = 0; i < gains.stateFromInput.size(); ++i) {
    m.state.push_back(gains.stateFromInput[i] * maxAbsInput + gains.stateFromState[i] * maxAbsInitial);
  }
  for (std::size_t k = 0; k < gains.sectionFromInput.size(); ++k) {
    m.sectionOutput.push_back(gains.sectionFromInput[k] * maxAbsInput + gains.sectionFromState[k] * maxAbsInitial);
  }
  return m;
}

double sosScanErrorBound(const Sections& sections, const SosGains& gains, double maxAbsInput, double maxAbsInitial) {
  const double eps = std::numeric_limits<double>::epsilon();
  const SosMagnitudes m = sosMagnitudes(gains, maxAbsInput, maxAbsInitial);
  const std::size_t states = m.state.size();
  double perturbation = 0, truncation = 0;
  for (std::size_t k = 0; k < sections.size(); ++k) {
    const Section& s = sections[k];
    const double u = k == 0 ? maxAbsInput : m.sectionOutput[k - 1], y = m.sectionOutput[k];
    const double z0 = m.state[2 * k], z1 = m.state[2 * k + 1];
    const double first = eps * (std::abs(s[0]) * u + y) + eps * (2 * std::abs(s[1]) * u + 2 * std::abs(s[4]) * y + z0);
    const double second = eps * (2 * std::abs(s[2]) * u + 2 * std::abs(s[5]) * y + z1);
    perturbation += first * gains.outputFromState[2 * k] + second * gains.outputFromState[2 * k + 1];
  }
  for (std::size_t i = 0; i < states; ++i) truncation += eps * m.state[i] * gains.outputFromState[i];
  const double addition = eps * m.sectionOutput.back();  // the carried response added to an output
  // 1.01: room for the second-order terms the first-order analysis leaves out.
  return 1.01 * (3 * perturbation + 2 * truncation + addition);
}

}  // namespace siglab
