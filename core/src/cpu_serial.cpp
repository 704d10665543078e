#include "siglab/cpu_serial.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>

namespace siglab {
namespace {

// One output where the window may cross an edge: every position goes through the boundary rule.
double filterAtEdge(std::span<const double> in, const FilterSpec& spec, std::int64_t i) {
  const auto n = static_cast<std::int64_t>(in.size());
  const auto r = static_cast<std::int64_t>(spec.radius());
  double acc = 0.0;
  for (std::size_t j = 0; j < spec.taps.size(); ++j) {
    const std::int64_t k = boundaryIndex(i - r + static_cast<std::int64_t>(j), n, spec.mode);
    if (k != kSkipSample) acc += spec.taps[j] * in[static_cast<std::size_t>(k)];
  }
  return acc;
}

}  // namespace

void filterSerial(std::span<const double> in, const FilterSpec& spec, std::span<double> out) {
  validate(spec);
  if (in.size() != out.size()) throw std::invalid_argument("filterSerial: input and output sizes differ");
  const auto n = static_cast<std::int64_t>(in.size());
  const auto r = static_cast<std::int64_t>(spec.radius());
  const double* taps = spec.taps.data();
  const std::size_t w = spec.taps.size();
  // Interior outputs read only in-range samples; same order of operations as filterAtEdge.
  const std::int64_t interiorBegin = std::min(r, n);
  const std::int64_t interiorEnd = std::max(interiorBegin, n - r);
  for (std::int64_t i = 0; i < interiorBegin; ++i) out[static_cast<std::size_t>(i)] = filterAtEdge(in, spec, i);
  for (std::int64_t i = interiorBegin; i < interiorEnd; ++i) {
    const double* x = in.data() + (i - r);
    double acc = 0.0;
    for (std::size_t j = 0; j < w; ++j) acc += taps[j] * x[j];
    out[static_cast<std::size_t>(i)] = acc;
  }
  for (std::int64_t i = interiorEnd; i < n; ++i) out[static_cast<std::size_t>(i)] = filterAtEdge(in, spec, i);
}

FilterRun CpuSerialBackend::run(std::span<const double> in, const FilterSpec& spec,
                                std::span<double> out, const RunOptions& options) {
  filterSerial(in, spec, out);  // warm-up: first touch of the output pages stays out of the timings
  std::vector<double> millis;
  for (int rep = 0; rep < std::max(1, options.repeat); ++rep) {
    const auto start = std::chrono::steady_clock::now();
    filterSerial(in, spec, out);
    const auto stop = std::chrono::steady_clock::now();
    millis.push_back(std::chrono::duration<double, std::milli>(stop - start).count());
  }
  FilterRun result;
  result.kernel = summarize(millis);
  result.total = result.kernel;
  result.transfer = summarize(std::vector<double>(millis.size(), 0.0));
  return result;
}

}  // namespace siglab
