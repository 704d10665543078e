#pragma once
// What cpu-serial and cpu-parallel share, so that both sum every output in the same order.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/filter_spec.hpp"

namespace siglab::detail {

// The taps in the accumulator's type: rounded to float for a float32 sum, as given otherwise.
template <typename Acc>
std::vector<Acc> tapsAs(const FilterSpec& spec) {
  return std::vector<Acc>(spec.taps.begin(), spec.taps.end());
}

// Outputs [begin, end) whose windows lie inside the signal; the rest go through the boundary rule.
struct Interior {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

inline Interior interiorOf(std::int64_t n, std::int64_t radius) {
  const std::int64_t begin = std::min(radius, n);
  return {begin, std::max(begin, n - radius)};
}

// One output near an edge: every position goes through boundaryIndex.
template <typename Acc, typename Sample>
Acc edgeOutput(std::span<const Sample> in, std::span<const Acc> taps, BoundaryMode mode, std::int64_t i) {
  const auto n = static_cast<std::int64_t>(in.size());
  const auto r = static_cast<std::int64_t>(taps.size() / 2);
  Acc acc = 0;
  for (std::size_t j = 0; j < taps.size(); ++j) {
    const std::int64_t k = boundaryIndex(i - r + static_cast<std::int64_t>(j), n, mode);
    if (k != kSkipSample) acc += taps[j] * static_cast<Acc>(in[static_cast<std::size_t>(k)]);
  }
  return acc;
}

// One interior output; `x` points at the first sample of its window.
template <typename Acc, typename Sample>
Acc interiorOutput(const Sample* x, const Acc* taps, std::size_t w) {
  Acc acc = 0;
  for (std::size_t j = 0; j < w; ++j) acc += taps[j] * static_cast<Acc>(x[j]);
  return acc;
}

// Outputs [begin, end) of the whole filter, edges included.
template <typename Acc, typename Sample, typename InteriorFn>
void filterOutputs(std::span<const Sample> in, std::span<const Acc> taps, BoundaryMode mode, std::span<Sample> out,
                   std::int64_t begin, std::int64_t end, InteriorFn&& interior) {
  const auto r = static_cast<std::int64_t>(taps.size() / 2);
  const Interior inner = interiorOf(static_cast<std::int64_t>(in.size()), r);
  const auto edge = [&](std::int64_t i) {
    out[static_cast<std::size_t>(i)] = static_cast<Sample>(edgeOutput(in, taps, mode, i));
  };
  for (std::int64_t i = begin; i < std::min(end, inner.begin); ++i) edge(i);
  const std::int64_t a = std::max(begin, inner.begin), b = std::min(end, inner.end);
  if (a < b) interior(in.data() + (a - r), out.data() + a, b - a);
  for (std::int64_t i = std::max(begin, inner.end); i < end; ++i) edge(i);
}

}  // namespace siglab::detail
