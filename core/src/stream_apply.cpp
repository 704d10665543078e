#include "siglab/stream_apply.hpp"

#include <algorithm>

#include "siglab/work_bounds.hpp"
#include "verified_block_filter.hpp"

namespace siglab {

std::uint64_t inMemoryApplyBytes(std::uint64_t inputBytes, std::uint64_t samples, SampleType type) {
  const std::uint64_t perSample = 3 * sizeof(double) + (type == SampleType::f32 ? 2 * sizeof(float) : 0);
  return inputBytes + samples * perSample;
}

StreamingPlan planStreaming(Streaming choice, std::string_view inexactEngine, SampleType type, const StreamingCase& io) {
  if (choice == Streaming::never) return {false, "in memory (--stream never)"};
  if (choice == Streaming::always) return {true, "streamed block by block (--stream always)"};
  // A text file has at least two bytes a sample ("0\n"): the most it can hold.
  const std::uint64_t samples = io.samples.value_or(io.inputBytes / 2);
  const bool fits = inMemoryApplyBytes(io.inputBytes, samples, type) <= availableMemoryBytes() / 2;
  const std::string name(inexactEngine);
  if (fits && !name.empty()) {
    return {false, "in memory: " + name + "'s rounding depends on where its work is cut, so a streamed result "
                   "would differ from the in-memory one (within its tolerance)"};
  }
  if (io.endsInMemory) {  // held either way: blocks would bound only a float32 copy
    return {false, "in memory: the signal and its result are in memory already (blocks would only copy them)"};
  }
  if (!fits) {
    return {true, "streamed block by block: the signal would not fit in the memory available" +
                      std::string(name.empty() ? "" : " (" + name + ": each block within its stated tolerance)")};
  }
  return {true, "streamed block by block with bounded memory, the same bits as in memory"};
}

PeekedStream::PeekedStream(std::unique_ptr<SampleStream> in, std::size_t count) : in_(std::move(in)) {
  // Grown as it fills, so a short signal (most runs of a few lines) does not zero 8 MiB first.
  constexpr std::size_t kStep = std::size_t{1} << 16;
  std::size_t got = 0;
  while (got < count) {
    peeked_.resize(std::min(count, std::max(2 * got, got + kStep)));
    const std::size_t n = in_->read(std::span(peeked_).subspan(got));
    got += n;
    if (n == 0) break;
  }
  ended_ = got < count;
  peeked_.resize(got);
  if (ended_) shortSize_ = got;
}

std::size_t PeekedStream::read(std::span<double> out) {
  std::size_t filled = 0;
  if (replayed_ < peeked_.size()) {
    filled = std::min(out.size(), peeked_.size() - replayed_);
    std::copy_n(peeked_.begin() + static_cast<std::ptrdiff_t>(replayed_), filled, out.begin());
    replayed_ += filled;
    if (replayed_ == peeked_.size()) std::vector<double>().swap(peeked_);  // replayed: its memory back
  }
  while (filled < out.size() && !ended_) {  // the caller expects a short read only at the end
    const std::size_t n = in_->read(out.subspan(filled));
    if (n == 0) ended_ = true;
    filled += n;
  }
  return filled;
}

std::optional<std::uint64_t> PeekedStream::knownSize() const {
  if (const auto size = in_->knownSize()) return size;
  return shortSize_;
}

StreamApplyResult streamApply(FilterBackend& engine, SampleStream& in, const Job& job, SampleSink& out,
                              const StreamFilterOptions& options, const Progress& progress) {
  validate(job.spec);
  StreamApplyResult streamed;
  ApplyResult& result = streamed.result;
  result.engine = std::string(engine.name());
  result.usesGpu = engine.usesGpu();
  result.verification.tolerance = 0.0;
  const PlacedBlockFilter filterBlock = detail::verifiedBlockFilter(engine, job, result, streamed.blocks, progress);
  streamed.samples = streamFilterPlaced(in, job.input, job.read, job.spec, filterBlock, out, options, progress).samples;
  return streamed;
}

}  // namespace siglab
