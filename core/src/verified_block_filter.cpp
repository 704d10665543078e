#include "verified_block_filter.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <type_traits>

#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/work_progress.hpp"

namespace siglab::detail {
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

PlacedBlockFilter verifiedBlockFilter(FilterBackend& engine, const Job& job, ApplyResult& result, std::size_t& blocks,
                                      const Progress& progress, std::optional<std::size_t> stage) {
  const Progress cancelOnly{{}, progress.cancelFlag};
  auto narrowIn = std::make_shared<std::vector<float>>();
  auto narrowOut = std::make_shared<std::vector<float>>();
  // The engine's own run; its failure tagged for the caller's fallback where asked.
  const auto run = [&engine, &job, cancelOnly, progress, stage](auto x, const FilterSpec& spec, auto y, bool whole) {
    try {
      return engine.filter(x, spec, y, job.run, whole ? progressPart(progress, 0.0, job.verify ? 0.9 : 1.0) : cancelOnly);
    } catch (const Cancelled&) {
      throw;
    } catch (const InputError&) {
      throw;
    } catch (const std::invalid_argument&) {
      throw;
    } catch (const std::exception& e) {
      if (!stage) throw;
      throw BlockEngineFailed(*stage, std::current_exception(), e.what());
    }
  };
  return [&engine, &job, &result, &blocks, narrowIn, narrowOut, run, cancelOnly](std::span<const double> x, const FilterSpec& spec,
                                                                                 std::span<double> y, const BlockPlace& place) {
    FilterPass pass;
    double verifyMs = 0.0;
    const auto timedVerify = [&](auto verify) {
      if (!job.verify) return;
      const auto start = std::chrono::steady_clock::now();
      verify();
      verifyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    if (job.sampleType == SampleType::f32) {
      narrowIn->resize(x.size());
      narrowOut->assign(x.size(), std::numeric_limits<float>::quiet_NaN());
      std::transform(x.begin(), x.end(), narrowIn->begin(), narrowHalo);
      narrowToFloat32Into(x.subspan(place.keepFrom, place.keepCount),
                          std::span(*narrowIn).subspan(place.keepFrom, place.keepCount), job.input, place.firstOutput);
      pass = run(std::span<const float>(*narrowIn), spec, std::span<float>(*narrowOut), place.wholeSignal);
      if (place.wholeSignal) finishEdges(std::span<const float>(*narrowIn), spec, std::span<float>(*narrowOut));
      std::copy(narrowOut->begin(), narrowOut->end(), y.begin());
      timedVerify([&] {
        verifyBlock<float>(engine, *narrowIn, *narrowOut, spec, pass.splits, place, job.verifyRandom, cancelOnly,
                           result.verification);
      });
    } else {
      pass = run(x, spec, y, place.wholeSignal);
      if (place.wholeSignal) finishEdges(x, spec, y);  // a longer signal's edges are put in place after (streamed_edges.hpp)
      timedVerify([&] {
        verifyBlock<double>(engine, x, std::span<const double>(y), spec, pass.splits, place, job.verifyRandom, cancelOnly,
                            result.verification);
      });
    }
    addPhases(result.pass.phases, pass.phases);
    if (result.pass.note.empty()) result.pass.note = pass.note;
    result.verifyMs += verifyMs;
    ++blocks;
  };
}

}  // namespace siglab::detail
