#pragma once
#include <vector>

namespace siglab {

// A timed phase over repeated runs, in milliseconds.
struct TimingStats {
  double medianMs = 0.0;
  double minMs = 0.0;
  double maxMs = 0.0;
  int samples = 0;
};

// Median (mean of the two middle values for an even count), min and max; all zero when empty.
TimingStats summarize(std::vector<double> millis);

}  // namespace siglab
