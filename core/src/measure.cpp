#include "siglab/measure.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

namespace siglab {

PhaseStats measure(const std::function<PhaseTimes()>& once, const MeasureOptions& options, const Progress& progress) {
  const int warmups = std::max(0, options.warmups);
  const int repeats = std::max(1, options.repeats);
  const double executions = warmups + repeats;
  for (int i = 0; i < warmups; ++i) {
    progress.throwIfCancelled();
    once();
    progress.report((i + 1) / executions);
  }
  std::vector<double> kernel, transfer, total;
  for (int i = 0; i < repeats; ++i) {
    progress.throwIfCancelled();
    const PhaseTimes t = once();
    kernel.push_back(t.kernelMs);
    transfer.push_back(t.transferMs);
    total.push_back(t.totalMs);
    progress.report((warmups + i + 1) / executions);
  }
  return PhaseStats{summarize(std::move(kernel)), summarize(std::move(transfer)), summarize(std::move(total))};
}

void validate(const MeasureOptions& options) {
  if (options.repeats < 1 || options.repeats > kMaxRepeats) {
    throw std::invalid_argument("repeat must be from 1 to " + std::to_string(kMaxRepeats) + ", not " +
                                std::to_string(options.repeats));
  }
  if (options.warmups < 0 || options.warmups > kMaxRepeats) {
    throw std::invalid_argument("warm-ups must be from 0 to " + std::to_string(kMaxRepeats) + ", not " +
                                std::to_string(options.warmups));
  }
}

}  // namespace siglab
