#include "siglab/stream_filter.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "siglab/boundary.hpp"

namespace siglab {
namespace {

// The sample that position k < 0 (left of the signal) reads, for a signal longer than 2r + 1
// samples, where the rule no longer depends on the length: `head` holds its first samples and
// `tail` its last r (wrap only).
double leftHaloSample(std::int64_t k, BoundaryMode mode, std::span<const double> head, std::span<const double> tail) {
  if (mode == BoundaryMode::Zero) return 0.0;  // a skipped sample adds nothing: 0 * tap adds nothing either
  if (mode == BoundaryMode::Wrap) {  // a tail that could not be read is a malformed file: the read reports it
    return static_cast<std::int64_t>(tail.size()) + k >= 0 ? tail[tail.size() + static_cast<std::size_t>(k)] : 0.0;
  }
  constexpr std::int64_t kLong = std::int64_t{1} << 60;
  return head[static_cast<std::size_t>(boundaryIndex(k, kLong, mode))];
}

}  // namespace

StreamFilterResult streamFilter(SampleStream& in, const std::string& inputPath, const ReadOptions& read,
                                const FilterSpec& spec, const BlockFilter& filter, SampleSink& out,
                                const StreamFilterOptions& options, const Progress& progress) {
  validate(spec);
  const std::size_t r = spec.radius();
  const std::size_t block = std::max<std::size_t>(options.blockSamples, 1);

  // First fill: a signal that fits here is filtered whole, in memory, with its own boundary rule.
  const std::size_t firstFill = block + 2 * r + 2;
  std::vector<double> first(firstFill);
  first.resize(in.read(first));
  if (first.size() < firstFill) {
    std::vector<double> result(first.size());
    filter(first, spec, result);
    out.write(result);
    progress.report(1.0);
    return {first.size()};
  }

  const std::vector<double> head(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(r + 1));
  const std::vector<double> tail =
      spec.mode == BoundaryMode::Wrap ? readSignalTail(inputPath, read, r) : std::vector<double>{};

  // ext holds positions [extStart, extStart + ext.size()) of the padded signal; outputs from
  // `next` on are still to be written.
  std::vector<double> ext;
  ext.reserve(block + 2 * r);
  for (std::int64_t k = -static_cast<std::int64_t>(r); k < 0; ++k) ext.push_back(leftHaloSample(k, spec.mode, head, tail));
  ext.insert(ext.end(), first.begin(), first.end());
  std::int64_t extStart = -static_cast<std::int64_t>(r);
  std::uint64_t next = 0;
  std::uint64_t total = first.size();
  first = {};

  std::vector<double> filtered;
  // Filters ext and writes its outputs for positions [next, next + count).
  const auto emit = [&](std::size_t count) {
    filtered.resize(ext.size());
    filter(ext, spec, filtered);
    const auto at = static_cast<std::size_t>(static_cast<std::int64_t>(next) - extStart);
    out.write(std::span<const double>(filtered).subspan(at, count));
    next += count;
  };

  bool ended = false;
  std::vector<double> more(block);
  while (!ended) {
    progress.throwIfCancelled();
    // Enough for `block` outputs from `next`: positions next - r .. next + block + r - 1.
    const std::size_t wanted = block + 2 * r;
    while (ext.size() < wanted) {
      const std::size_t n = in.read(std::span(more).first(std::min(more.size(), wanted - ext.size())));
      if (n == 0) {
        ended = true;
        break;
      }
      ext.insert(ext.end(), more.begin(), more.begin() + static_cast<std::ptrdiff_t>(n));
      total += n;
    }
    if (ended) break;
    emit(block);
    // Keep the r positions before `next` as the next block's left context.
    const auto keepFrom = static_cast<std::size_t>(static_cast<std::int64_t>(next) - static_cast<std::int64_t>(r) - extStart);
    ext.erase(ext.begin(), ext.begin() + static_cast<std::ptrdiff_t>(keepFrom));
    extStart += static_cast<std::int64_t>(keepFrom);
    progress.report(in.fractionRead());
  }

  // The end: positions N .. N + r - 1 through the boundary rule, now that N is known.
  const auto n = static_cast<std::int64_t>(total);
  for (std::int64_t k = n; k < n + static_cast<std::int64_t>(r); ++k) {
    const std::int64_t source = boundaryIndex(k, n, spec.mode);
    if (source == kSkipSample) {
      ext.push_back(0.0);
    } else if (source >= extStart) {
      ext.push_back(ext[static_cast<std::size_t>(source - extStart)]);
    } else {
      ext.push_back(head[static_cast<std::size_t>(source)]);  // wrap: the signal's first samples
    }
  }
  emit(total - next);
  progress.report(1.0);
  return {total};
}

}  // namespace siglab
