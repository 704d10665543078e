#pragma once
// The filter for signals larger than memory: read, filter and write block by block with halos.
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "siglab/filter_spec.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/progress.hpp"

namespace siglab {

// Filters all of `in` into `out` (same size) with `spec`, boundary mode included: what any engine
// does. The stream calls it on blocks whose ends it has padded with the right samples, and keeps
// only the outputs whose windows lie inside the block, so the result is the same bits as filtering
// the whole signal in memory with that engine.
using BlockFilter = std::function<void(std::span<const double> in, const FilterSpec& spec, std::span<double> out)>;

// Where a block lies in the signal: its outputs keepFrom .. keepFrom + keepCount - 1 are the
// signal's outputs firstOutput .. firstOutput + keepCount - 1 (their windows lie inside the
// block); the others read its padded ends and are discarded. `wholeSignal`: the block is the
// whole signal, unpadded (a signal shorter than one block).
struct BlockPlace {
  std::uint64_t firstOutput = 0;
  std::size_t keepFrom = 0;
  std::size_t keepCount = 0;
  bool wholeSignal = false;
};
using PlacedBlockFilter = std::function<void(std::span<const double> in, const FilterSpec& spec,
                                             std::span<double> out, const BlockPlace& place)>;

struct StreamFilterOptions {
  // Outputs a block: 4 MiB of doubles, which stay in the caches from the read to the write (and
  // below cpu-parallel's 8 MiB for stores around the cache); tests use tiny ones.
  std::size_t blockSamples = std::size_t{1} << 19;
};

struct StreamFilterResult {
  std::uint64_t samples = 0;
};

// Reads `in` (opened on `inputPath` with `read`), filters it with `filter` and writes the result
// to `out` (not committed: the caller commits once everything it writes is complete). The
// boundary modes that need the far end of the signal (wrap) read its tail first. Checks `progress`
// between blocks (throws Cancelled) and reports the fraction of the input read. Throws
// InputError as the readers do; nothing is committed then.
StreamFilterResult streamFilter(SampleStream& in, const std::string& inputPath, const ReadOptions& read,
                                const FilterSpec& spec, const BlockFilter& filter, SampleSink& out,
                                const StreamFilterOptions& options = {}, const Progress& progress = {});

// The same, telling `filter` where each block lies (to check a block's outputs, or name a sample).
StreamFilterResult streamFilterPlaced(SampleStream& in, const std::string& inputPath, const ReadOptions& read,
                                      const FilterSpec& spec, const PlacedBlockFilter& filter, SampleSink& out,
                                      const StreamFilterOptions& options = {}, const Progress& progress = {});

// The same on a stream that is no file (a stage of a chain, samples in memory): `tail(count)`
// gives the signal's last `count` samples, which wrap reads first.
using SignalTail = std::function<std::vector<double>(std::size_t count)>;
StreamFilterResult streamFilterPlaced(SampleStream& in, const SignalTail& tail, const FilterSpec& spec,
                                      const PlacedBlockFilter& filter, SampleSink& out,
                                      const StreamFilterOptions& options = {}, const Progress& progress = {});

}  // namespace siglab
