#include "siglab/stream_filter.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "block_pipeline.hpp"
#include "stream_halo.hpp"
#include "siglab/boundary.hpp"

namespace siglab {

using detail::leftHaloSample;
using detail::readUpTo;

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
  const SignalTail tail = [&](std::size_t count) { return readSignalTail(inputPath, read, count); };
  return streamFilterPlaced(in, tail, spec, filter, out, options, progress);
}

StreamFilterResult streamFilterPlaced(SampleStream& in, const SignalTail& signalTail, const FilterSpec& spec,
                                      const PlacedBlockFilter& filter, SampleSink& out,
                                      const StreamFilterOptions& options, const Progress& progress) {
  validate(spec);
  const std::size_t r = spec.radius();
  const std::size_t block = std::max<std::size_t>(options.blockSamples, 1);

  // First fill: a signal that fits here is filtered whole, in memory, with its own boundary rule.
  const std::size_t firstFill = block + 2 * r + 2;
  std::vector<double> first = readUpTo(in, firstFill);
  if (first.size() < firstFill) {
    std::vector<double> result(first.size());
    filter(first, spec, result, BlockPlace{0, 0, first.size(), true});
    out.write(result);
    progress.report(1.0);
    return {first.size()};
  }

  const std::vector<double> head(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(r + 1));
  const std::vector<double> tail =
      spec.mode == BoundaryMode::Wrap ? signalTail(r) : std::vector<double>{};

  // A block's samples are positions [next - r, next + count + r) of the padded signal, where `next`
  // is its first output; the first block's left halo comes through the boundary rule.
  std::vector<double> firstBlock;
  firstBlock.reserve(block + 2 * r);
  for (std::int64_t k = -static_cast<std::int64_t>(r); k < 0; ++k) firstBlock.push_back(leftHaloSample(k, spec.mode, head, tail));
  const auto firstTaken = static_cast<std::ptrdiff_t>(block + r);
  firstBlock.insert(firstBlock.end(), first.begin(), first.begin() + firstTaken);
  std::vector<double> carry(firstBlock.end() - static_cast<std::ptrdiff_t>(2 * r), firstBlock.end());
  std::vector<double> pending(first.begin() + firstTaken, first.end());
  first = {};

  const detail::FilterThreads filterThreads;
  detail::BlockWriter writer(out);
  std::uint64_t next = 0;
  std::uint64_t total = block + r;
  // Filters positions next - r .. next + count + r - 1 and hands outputs next .. next + count - 1 to the writer.
  const auto emit = [&](std::span<const double> ext, std::size_t count) {
    std::vector<double> filtered = writer.buffer();
    filtered.resize(count + 2 * r);
    filter(ext.first(count + 2 * r), spec, filtered, BlockPlace{next, r, count, false});
    writer.write(std::move(filtered), r, count);
    next += count;
  };
  emit(firstBlock, block);
  firstBlock = {};

  detail::BlockReader reader(in, std::move(carry), std::move(pending), block);
  for (;;) {
    progress.throwIfCancelled();
    detail::InputBlock ext = reader.next();
    total += ext.fresh;
    progress.report(ext.fractionRead);
    if (ext.fresh < block) {
      // The end: positions N .. N + r - 1 through the boundary rule, now that N is known.
      const auto n = static_cast<std::int64_t>(total);
      const std::int64_t extStart = static_cast<std::int64_t>(next) - static_cast<std::int64_t>(r);
      for (std::int64_t k = n; k < n + static_cast<std::int64_t>(r); ++k) {
        const std::int64_t source = boundaryIndex(k, n, spec.mode);
        if (source == kSkipSample) {
          ext.samples.push_back(0.0);
        } else if (source >= extStart) {
          ext.samples.push_back(ext.samples[static_cast<std::size_t>(source - extStart)]);
        } else {
          ext.samples.push_back(head[static_cast<std::size_t>(source)]);  // wrap: the signal's first samples
        }
      }
      progress.throwIfCancelled();
      emit(ext.samples, total - next);
      break;
    }
    emit(ext.samples, block);
    reader.recycle(std::move(ext.samples));
  }
  writer.finish();
  progress.report(1.0);
  return {total};
}

}  // namespace siglab
