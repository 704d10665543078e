#pragma once
#include <algorithm>
#include <chrono>
#include <vector>

#include "siglab/filter_backend.hpp"

namespace siglab::detail {

// Runs `filter` once as a warm-up (first touch of the output pages stays out of the timings),
// then options.repeat times, timed. CPU engines have no transfers.
template <typename Filter>
FilterRun timeCpuRuns(const RunOptions& options, Filter&& filter) {
  filter();
  std::vector<double> millis;
  for (int rep = 0; rep < std::max(1, options.repeat); ++rep) {
    const auto start = std::chrono::steady_clock::now();
    filter();
    const auto stop = std::chrono::steady_clock::now();
    millis.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  FilterRun result;
  result.kernel = summarize(millis);
  result.total = result.kernel;
  result.transfer = summarize(std::vector<double>(millis.size(), 0.0));
  return result;
}

}  // namespace siglab::detail
