#include "siglab/stream_filter.hpp"

#include <algorithm>
#include <future>
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
  const PlacedBlockFilter placed = [&filter](std::span<const double> x, const FilterSpec& s, std::span<double> y,
                                             const BlockPlace&) { filter(x, s, y); };
  return streamFilterPlaced(in, inputPath, read, spec, placed, out, options, progress);
}

StreamFilterResult streamFilterPlaced(SampleStream& in, const std::string& inputPath, const ReadOptions& read,
                                      const FilterSpec& spec, const PlacedBlockFilter& filter, SampleSink& out,
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
    filter(first, spec, result, BlockPlace{0, 0, first.size(), true});
    out.write(result);
    progress.report(1.0);
    return {first.size()};
  }

  const std::vector<double> head(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(r + 1));
  const std::vector<double> tail =
      spec.mode == BoundaryMode::Wrap ? readSignalTail(inputPath, read, r) : std::vector<double>{};

  // ext holds positions [next - r, next - r + ext.size()) of the padded signal, where `next` is the
  // first output still to be written.
  std::vector<double> ext;
  ext.reserve(block + 3 * r + 2);
  for (std::int64_t k = -static_cast<std::int64_t>(r); k < 0; ++k) ext.push_back(leftHaloSample(k, spec.mode, head, tail));
  ext.insert(ext.end(), first.begin(), first.end());
  std::uint64_t next = 0;
  std::uint64_t total = first.size();
  first = {};

  std::vector<double> filtered;
  // Filters positions next - r .. next + count + r - 1 and writes outputs next .. next + count - 1.
  const auto emit = [&](std::size_t count) {
    filtered.resize(count + 2 * r);
    filter(std::span<const double>(ext).first(count + 2 * r), spec, filtered, BlockPlace{next, r, count, false});
    out.write(std::span<const double>(filtered).subspan(r, count));
    next += count;
    ext.erase(ext.begin(), ext.begin() + static_cast<std::ptrdiff_t>(count));
  };

  // Reads ahead: the next samples come in on another thread while the blocks in hand are filtered
  // and written.
  std::vector<double> ahead(block);
  const auto policy = block >= (std::size_t{1} << 16) ? std::launch::async : std::launch::deferred;  // small: no thread
  const auto readAhead = [&] {
    return std::async(policy, [&in, &ahead] {
      std::size_t got = 0;
      while (got < ahead.size()) {
        const std::size_t n = in.read(std::span(ahead).subspan(got));
        if (n == 0) break;
        got += n;
      }
      return got;
    });
  };
  std::future<std::size_t> pending = readAhead();
  for (;;) {
    while (ext.size() >= block + 2 * r) {
      progress.throwIfCancelled();
      emit(block);
    }
    const std::size_t got = pending.get();
    ext.insert(ext.end(), ahead.begin(), ahead.begin() + static_cast<std::ptrdiff_t>(got));
    total += got;
    progress.report(in.fractionRead());
    if (got < ahead.size()) break;  // the end of the signal
    pending = readAhead();
  }

  // The end: positions N .. N + r - 1 through the boundary rule, now that N is known.
  const auto n = static_cast<std::int64_t>(total);
  const std::int64_t extStart = static_cast<std::int64_t>(next) - static_cast<std::int64_t>(r);
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
  progress.throwIfCancelled();
  emit(total - next);
  progress.report(1.0);
  return {total};
}

}  // namespace siglab
