#include "siglab/stream_apply.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>

#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

// The seed applyFilter verifies with, so that a signal of one block gets the same checks.
constexpr std::uint64_t kVerifySeed = 0x5167AB;

// A halo sample float32 cannot hold becomes an infinity (a cast would be undefined): its own block
// names it as narrowToFloat32 does before anything is committed.
float narrowHalo(double v) {
  if (fitsFloat32(v) || std::isnan(v)) return static_cast<float>(v);
  return v > 0 ? std::numeric_limits<float>::infinity() : -std::numeric_limits<float>::infinity();
}

// A block of the stream gets job.verifyRandom random checks per this many outputs (at least one):
// the rate of the first streamed blocks, whatever the block size (a fixed count a block made small
// blocks spend a fifth of their time verifying).
constexpr std::size_t kOutputsPerRandomCount = std::size_t{1} << 22;

// The outputs of a block worth checking, in block positions, all among the ones it keeps.
std::vector<std::size_t> blockPositions(std::size_t blockSize, const FilterSpec& spec, const WorkSplits& splits,
                                        const BlockPlace& place, std::size_t randomCount) {
  const std::size_t window = spec.window();
  if (place.wholeSignal) return verificationPositions(blockSize, window, splits, randomCount, kVerifySeed);
  const std::size_t begin = place.keepFrom, end = place.keepFrom + place.keepCount;
  const std::size_t blockRandom = randomCount == 0 ? 0
                                  : std::max<std::size_t>(1, static_cast<std::size_t>(
                                        static_cast<double>(randomCount) * static_cast<double>(place.keepCount) /
                                        static_cast<double>(kOutputsPerRandomCount)));
  std::vector<std::size_t> positions = verificationPositions(blockSize, window, splits,
                                                             std::min(blockRandom, place.keepCount),
                                                             kVerifySeed + place.firstOutput);
  std::erase_if(positions, [&](std::size_t p) { return p < begin || p >= end; });
  for (std::size_t p = begin; p < std::min(end, begin + window); ++p) positions.push_back(p);  // after the join
  for (std::size_t p = end > window ? std::max(begin, end - window) : begin; p < end; ++p) positions.push_back(p);
  std::sort(positions.begin(), positions.end());
  positions.erase(std::unique(positions.begin(), positions.end()), positions.end());
  return positions;
}

// One block's check, as applyAs checks a whole signal, merged into `total` (signal indices). It
// looks at `cancel`'s flag as it goes: a wide window's checks at the joins take long.
template <typename Sample>
void verifyBlock(const FilterBackend& engine, std::span<const Sample> in, std::span<const Sample> out,
                 const FilterSpec& spec, const WorkSplits& splits, const BlockPlace& place, std::size_t randomCount,
                 const Progress& cancel, Verification& total) {
  const auto toleranceFor = [&](double maxAbsInput) {
    return std::is_same_v<Sample, float> ? engine.toleranceFloat32(spec, maxAbsInput) : engine.tolerance(spec, maxAbsInput);
  };
  double tolerance = toleranceFor(1.0);
  if (tolerance != 0.0) {
    double largest = 0.0;
    for (const Sample v : in) {
      if (std::isfinite(v)) largest = std::max(largest, std::fabs(static_cast<double>(v)));
    }
    tolerance = toleranceFor(largest);
  }
  const std::vector<std::size_t> positions = blockPositions(in.size(), spec, splits, place, randomCount);
  const Verification v = verifyOutputs(in, spec, out, positions, tolerance, cancel);
  if (v.mismatches > 0 && total.mismatches == 0) total.firstMismatch = place.firstOutput + v.firstMismatch - place.keepFrom;
  total.checked += v.checked;
  total.mismatches += v.mismatches;
  total.maxAbsDiff = std::max(total.maxAbsDiff, v.maxAbsDiff);
  total.tolerance = std::max(total.tolerance, v.tolerance);
}

void addPhases(PhaseTimes& sum, const PhaseTimes& block) {
  sum.kernelMs += block.kernelMs;
  sum.transferMs += block.transferMs;
  sum.totalMs += block.totalMs;
}

}  // namespace

std::uint64_t inMemoryApplyBytes(std::uint64_t inputBytes, std::uint64_t samples, SampleType type) {
  const std::uint64_t perSample = 3 * sizeof(double) + (type == SampleType::f32 ? 2 * sizeof(float) : 0);
  return inputBytes + samples * perSample;
}

StreamingPlan planStreaming(Streaming choice, const FilterBackend& engine, const Job& job, const StreamingCase& io) {
  if (choice == Streaming::never) return {false, "in memory (--stream never)"};
  // The halos are the taps' radius: a kind that reads past it (a recursive filter) cannot stream so.
  if (job.spec.kind != FilterKind::Correlation) {
    return {false, "in memory: only correlations stream so far, not a " + std::string(toString(job.spec.kind))};
  }
  if (choice == Streaming::always) return {true, "streamed block by block (--stream always)"};
  // A text file has at least two bytes a sample ("0\n"): the most it can hold.
  const std::uint64_t samples = io.samples.value_or(io.inputBytes / 2);
  const bool fits = inMemoryApplyBytes(io.inputBytes, samples, job.sampleType) <= availableMemoryBytes() / 2;
  const std::string name(engine.name());
  const bool exact = (job.sampleType == SampleType::f32 ? engine.toleranceFloat32(job.spec, 1.0)
                                                        : engine.tolerance(job.spec, 1.0)) == 0.0;
  if (fits && !exact) {
    return {false, "in memory: " + name + "'s rounding depends on where its work is cut, so a streamed result "
                   "would differ from the in-memory one (within its tolerance)"};
  }
  if (!fits) {
    return {true, "streamed block by block: the signal would not fit in the memory available" +
                      std::string(exact ? "" : " (" + name + ": each block within its stated tolerance)")};
  }
  return {true, "streamed block by block with bounded memory, the same bits as in memory"};
}

PeekedStream::PeekedStream(std::unique_ptr<SampleStream> in, std::size_t count) : in_(std::move(in)), peeked_(count) {
  std::size_t got = 0;
  while (got < peeked_.size()) {
    const std::size_t n = in_->read(std::span(peeked_).subspan(got));
    if (n == 0) break;
    got += n;
  }
  ended_ = got < peeked_.size();
  peeked_.resize(got);
  if (ended_) shortSize_ = got;
}

std::size_t PeekedStream::read(std::span<double> out) {
  std::size_t filled = 0;
  if (replayed_ < peeked_.size()) {
    filled = std::min(out.size(), peeked_.size() - replayed_);
    std::copy_n(peeked_.begin() + static_cast<std::ptrdiff_t>(replayed_), filled, out.begin());
    replayed_ += filled;
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
  const Progress cancelOnly{{}, progress.cancelFlag};  // the stream reports how far it has read
  std::vector<float> narrowIn, narrowOut;

  const PlacedBlockFilter filterBlock = [&](std::span<const double> x, const FilterSpec& spec, std::span<double> y,
                                            const BlockPlace& place) {
    FilterPass pass;
    double verifyMs = 0.0;
    const auto timedVerify = [&](auto verify) {
      if (!job.verify) return;
      const auto start = std::chrono::steady_clock::now();
      verify();
      verifyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    if (job.sampleType == SampleType::f32) {
      narrowIn.resize(x.size());
      narrowOut.assign(x.size(), std::numeric_limits<float>::quiet_NaN());
      std::transform(x.begin(), x.end(), narrowIn.begin(), narrowHalo);
      narrowToFloat32Into(x.subspan(place.keepFrom, place.keepCount),
                          std::span(narrowIn).subspan(place.keepFrom, place.keepCount), job.input, place.firstOutput);
      pass = engine.filter(std::span<const float>(narrowIn), spec, std::span<float>(narrowOut), job.run, cancelOnly);
      std::copy(narrowOut.begin(), narrowOut.end(), y.begin());
      timedVerify([&] {
        verifyBlock<float>(engine, narrowIn, narrowOut, spec, pass.splits, place, job.verifyRandom, cancelOnly,
                           result.verification);
      });
    } else {
      pass = engine.filter(x, spec, y, job.run, cancelOnly);
      timedVerify([&] {
        verifyBlock<double>(engine, x, std::span<const double>(y), spec, pass.splits, place, job.verifyRandom,
                            cancelOnly, result.verification);
      });
    }
    addPhases(result.pass.phases, pass.phases);
    if (result.pass.note.empty()) result.pass.note = pass.note;
    result.verifyMs += verifyMs;
    ++streamed.blocks;
  };
  streamed.samples = streamFilterPlaced(in, job.input, job.read, job.spec, filterBlock, out, options, progress).samples;
  return streamed;
}

}  // namespace siglab
