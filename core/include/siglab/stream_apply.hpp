#pragma once
// Apply for signals larger than memory: one engine filters a streamed file block by block
// (streamFilter's halos), each block checked against its own input, the result written as it
// comes. With an exact engine the file is byte-identical to the in-memory apply's.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/job.hpp"
#include "siglab/stream_filter.hpp"

namespace siglab {

enum class Streaming : std::uint8_t { automatic, always, never };

struct StreamingPlan {
  bool stream = false;
  std::string why;  // one line for people
};

// What filter's apply needs: the input's size, and the engine it runs first. Standard input and
// pipes are read into a temporary file first, and every output appears only when complete (a
// pipe gets it from a temporary file), so they stream as files do.
struct StreamingCase {
  std::uint64_t inputBytes = 0;
  std::optional<std::uint64_t> samples;  // when the format says it (or the signal was short)
  // The signal and its result both in memory (channels in memory into a memory sink): blocks
  // would bound no memory, only copy each sample in and out of them and cut a GPU's work small.
  bool endsInMemory = false;
};

// Whether a run whose every stage can stream (finite history: runPipeline checks that first)
// streams. `automatic` streams wherever the result is the in-memory result's bits and nothing is
// lost by it: every engine is exact (tolerance 0: each output depends only on its window, which a
// block hands over whole), and the output is a file that appears only when complete. It keeps the
// in-memory path where that is what the user gets: an inexact engine (`inexactEngine`, the first
// whose rounding depends on where its work is cut: running sum, FFT; empty when none) unless the
// signal would not fit in the memory available, where streaming is the only way; and always where
// both ends are in memory (io.endsInMemory: the signal and its whole result are held either way,
// so blocks would bound nothing but copy every sample in and out of them).
StreamingPlan planStreaming(Streaming choice, std::string_view inexactEngine, SampleType type, const StreamingCase& io);

// Memory the in-memory apply needs for `samples` samples read from `inputBytes` bytes (the file
// mapped, the samples, the result, a float32 copy), about what it peaks at.
std::uint64_t inMemoryApplyBytes(std::uint64_t inputBytes, std::uint64_t samples, SampleType type);

// A stream whose first `count` samples were read ahead: when the signal is shorter, knownSize()
// says its size, so a spec can be fitted to the signal before filtering; read() replays them.
class PeekedStream final : public SampleStream {
 public:
  PeekedStream(std::unique_ptr<SampleStream> in, std::size_t count);
  std::size_t read(std::span<double> out) override;
  std::optional<std::uint64_t> knownSize() const override;
  std::optional<double> sampleRate() const override { return in_->sampleRate(); }
  double fractionRead() const override { return in_->fractionRead(); }

 private:
  std::unique_ptr<SampleStream> in_;
  std::vector<double> peeked_;
  std::size_t replayed_ = 0;
  bool ended_ = false;
  std::optional<std::uint64_t> shortSize_;
};

struct StreamApplyResult {
  ApplyResult result;     // output empty (it went to the sink); phases summed over the blocks
  std::uint64_t samples = 0;
  std::size_t blocks = 0;
};

// Filters `in` (opened on job.input with job.read) with `engine` into `out` block by block.
// With job.sampleType f32 each block is narrowed (a sample float32 cannot hold is the InputError
// narrowToFloat32 gives, with its index in the signal) and its result widened. Unless job.verify
// is false, each block is verified as applyFilter verifies a whole signal, against the block's
// own input: the first and last W of the outputs it keeps, both sides of the engine's cuts, and
// job.verifyRandom random outputs per 4M outputs (at least one a block); a signal of one block gets exactly applyFilter's checks.
// Does not commit `out`. Throws as applyFilter and streamFilter do.
StreamApplyResult streamApply(FilterBackend& engine, SampleStream& in, const Job& job, SampleSink& out,
                              const StreamFilterOptions& options = {}, const Progress& progress = {});

}  // namespace siglab
