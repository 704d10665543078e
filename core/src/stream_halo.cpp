#include "stream_halo.hpp"

#include <algorithm>

namespace siglab::detail {

double leftHaloSample(std::int64_t k, BoundaryMode mode, std::span<const double> head, std::span<const double> tail) {
  if (mode == BoundaryMode::Zero) return 0.0;  // a skipped sample adds nothing: 0 * tap adds nothing either
  if (mode == BoundaryMode::Wrap) {  // a tail that could not be read is a malformed file: the read reports it
    return static_cast<std::int64_t>(tail.size()) + k >= 0 ? tail[tail.size() + static_cast<std::size_t>(k)] : 0.0;
  }
  constexpr std::int64_t kLong = std::int64_t{1} << 60;
  return head[static_cast<std::size_t>(boundaryIndex(k, kLong, mode))];
}

std::vector<double> readUpTo(SampleStream& in, std::size_t count) {
  std::vector<double> samples;
  std::size_t ask = std::min<std::size_t>(count, std::size_t{1} << 16);
  while (ask > 0) {
    const std::size_t had = samples.size();
    samples.resize(had + ask);
    const std::size_t got = in.read(std::span<double>(samples).subspan(had));
    samples.resize(had + got);
    if (got < ask) break;  // the end of the signal
    ask = std::min(count - samples.size(), samples.size());
  }
  return samples;
}

}  // namespace siglab::detail
