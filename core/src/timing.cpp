#include "siglab/timing.hpp"

#include <algorithm>

namespace siglab {

TimingStats summarize(std::vector<double> millis) {
  TimingStats stats;
  if (millis.empty()) return stats;
  std::sort(millis.begin(), millis.end());
  const std::size_t n = millis.size();
  stats.medianMs = n % 2 == 1 ? millis[n / 2] : 0.5 * (millis[n / 2 - 1] + millis[n / 2]);
  stats.minMs = millis.front();
  stats.maxMs = millis.back();
  stats.samples = static_cast<int>(n);
  return stats;
}

}  // namespace siglab
