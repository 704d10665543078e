#pragma once
// What the CPU engines share: one timed execution, and the cuts of their parallel pieces.
#include <cstdint>
#include <vector>

#include "parallel_range.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab::detail {

// One execution of `work`, timed on the host; CPU engines have no transfers.
template <typename Work>
FilterPass timedCpuPass(WorkSplits splits, Work&& work) {
  FilterPass pass;
  pass.phases = timeOnHost(work);
  pass.splits = std::move(splits);
  return pass;
}

// Where `pieces` near-equal pieces of [0, n) begin, the first apart.
inline std::vector<std::size_t> pieceStarts(std::int64_t n, std::int64_t pieces) {
  std::vector<std::size_t> starts;
  for (std::int64_t p = 1; p < pieces; ++p) starts.push_back(static_cast<std::size_t>(chunkOf(n, pieces, p).begin));
  return starts;
}

}  // namespace siglab::detail
