#include "sos_segment_carry.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sos_step.hpp"

namespace siglab::detail {

void SegmentResponse::restart(const SosState& start) {
  at = begin;
  z = start;
  local = 0;
  values.clear();
  faded = false;
}

std::vector<double> carryFloor(const SosGains& gains, double inputBefore, double maxAbsInitial) {
  const double eps = std::numeric_limits<double>::epsilon();
  const SosMagnitudes magnitudes = sosMagnitudes(gains, inputBefore, maxAbsInitial);
  std::vector<double> floor(magnitudes.state.size());
  for (std::size_t k = 0; k < floor.size(); ++k) floor[k] = std::min(1e-290, eps * magnitudes.state[k]);
  return floor;
}

void stepResponse(SegmentResponse& r, const Sections& sections, const SosGains& gains, const double* x,
                  std::ptrdiff_t stride, std::int64_t until) {
  static const std::vector<double> zeros(static_cast<std::size_t>(kCarryChunk), 0.0);
  const double eps = std::numeric_limits<double>::epsilon();
  const std::size_t states = r.z.size();
  until = std::min(until, r.end);
  while (!r.faded && r.at < until) {
    const std::int64_t count = std::min(kCarryChunk, r.end - r.at);
    r.values.resize(static_cast<std::size_t>(r.at - r.begin + count));
    sosRange(sections.data(), sections.size(), r.z.data(), zeros.data(), r.values.data() + (r.at - r.begin), 1,
             static_cast<std::size_t>(count));
    r.local = std::max(r.local, maxAbsOf(x + r.at * stride, stride, count));
    r.local = std::min(r.local, r.peak);
    r.at += count;
    r.faded = true;
    for (std::size_t k = 0; k < states && r.faded; ++k) {
      r.faded = std::abs(r.z[k]) <= std::max(r.floor[k], eps * gains.stateFromInput[k] * r.local);
    }
  }
}

}  // namespace siglab::detail
