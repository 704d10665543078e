#include "siglab/verify.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <random>

#include "filter_kernels.hpp"
#include "parallel_range.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/sos_verify.hpp"
#include "siglab/work_progress.hpp"
#include "usable_threads.hpp"

namespace siglab {
namespace {

template <typename Sample>
bool sameBits(Sample a, Sample b) {
  if constexpr (sizeof(Sample) == 8) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
  } else {
    return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b);
  }
}

template <typename Sample>
void compareOutputAs(Verification& v, std::size_t position, Sample expected, Sample got, bool bitForBit,
                     double tolerance) {
  ++v.checked;
  if (std::isnan(expected) && std::isnan(got)) return;
  const double diff = std::isnan(expected) || std::isnan(got)
                          ? std::numeric_limits<double>::infinity()
                          : std::fabs(static_cast<double>(got) - static_cast<double>(expected));
  v.maxAbsDiff = std::max(v.maxAbsDiff, diff);
  const bool agrees = bitForBit ? sameBits(expected, got) : diff <= tolerance;
  if (agrees) return;
  if (v.mismatches++ == 0 || position < v.firstMismatch) v.firstMismatch = position;
}

// Compares out[p] with expectedAt(p) for the positions of one piece.
template <typename Sample, typename Expected>
Verification comparePiece(std::span<const Sample> out, std::span<const std::size_t> positions, double tolerance,
                          const Expected& expectedAt) {
  Verification v;
  for (const std::size_t p : positions) compareOutputAs<Sample>(v, p, expectedAt(p), out[p], tolerance == 0.0, tolerance);
  return v;
}

// Compares out[p] with expectedAt(p) for every p in `positions` (sorted), in pieces of at most a
// millisecond each (each output costs about `window` multiply-adds) shared by every core: a GPU
// engine's cuts every few hundred outputs make hundreds of thousands of positions, tens of
// milliseconds on one core. Looks at Cancel and reports between rounds of a piece per thread.
template <typename Sample, typename Expected>
Verification compareAt(std::span<const Sample> out, std::span<const std::size_t> positions, double tolerance,
                       std::size_t window, const Progress& progress, Expected&& expectedAt) {
  Verification v;
  v.tolerance = tolerance;
  WorkProgress work(progress, positions.size());
  const std::size_t threads = detail::usableThreads();  // one in a forked child
  // Every core takes a share however few the positions: each is a cache miss or two in a large
  // signal, and 4,000 on one core took a millisecond on the GPU machine.
  constexpr std::size_t kFewestInAPiece = 64;
  const std::size_t shared = std::max(kFewestInAPiece, (positions.size() + threads - 1) / threads);
  const auto piece = std::min(static_cast<std::size_t>(detail::outputsPerCancelCheck(window)), shared);
  std::vector<Verification> parts(threads);
  for (std::size_t begin = 0; begin < positions.size(); begin += piece * threads) {
    work.throwIfCancelled();
    const std::size_t end = std::min(positions.size(), begin + piece * threads);
    const auto pieces = static_cast<std::int64_t>((end - begin + piece - 1) / piece);
#pragma omp parallel for schedule(static, 1) if (pieces > 1)
    for (std::int64_t k = 0; k < pieces; ++k) {
      const std::size_t from = begin + static_cast<std::size_t>(k) * piece;
      parts[static_cast<std::size_t>(k)] =
          comparePiece(out, positions.subspan(from, std::min(end, from + piece) - from), tolerance, expectedAt);
    }
    for (std::int64_t k = 0; k < pieces; ++k) {
      addVerification(v, parts[static_cast<std::size_t>(k)]);
    }
    work.add(end - begin);
  }
  return v;
}

template <typename Acc, typename Sample>
Verification verifyCorrelation(std::span<const Sample> in, const FilterSpec& spec, std::span<const Sample> out,
                               std::span<const std::size_t> positions, double tolerance, const Progress& progress) {
  const std::vector<Acc> taps = detail::tapsAs<Acc>(spec);
  // Savitzky-Golay's interp edges: the fits to the first and last W samples, computed once here.
  const std::size_t half = spec.window() / 2, n = in.size();
  const bool interp = spec.kind == FilterKind::SavitzkyGolay && spec.savgol.interp && n >= spec.window();
  std::vector<Sample> head(interp ? spec.window() : 0), tail(head.size());
  if (interp) {
    finishEdges(in.first(head.size()), spec, std::span<Sample>(head));
    finishEdges(in.last(tail.size()), spec, std::span<Sample>(tail));
  }
  return compareAt(out, positions, tolerance, spec.window(), progress, [&](std::size_t p) {
    if (interp && p < half) return head[p];
    if (interp && p >= n - half) return tail[p - (n - tail.size())];
    // Inside the signal every index is its own: the same sum in the same order without the
    // boundary rule's look-up per tap (a third of a GPU run's check time).
    if (p >= half && p + half < n) return static_cast<Sample>(detail::interiorOutput(in.data() + (p - half), taps.data(), taps.size()));
    return static_cast<Sample>(detail::edgeOutput<Acc, Sample>(in, taps, spec.mode, static_cast<std::int64_t>(p)));
  });
}

template <typename Acc, typename Sample>
Verification verifyAs(std::span<const Sample> in, const FilterSpec& spec, std::span<const Sample> out,
                      std::span<const std::size_t> positions, double tolerance, const Progress& progress) {
  validate(spec);
  switch (spec.kind) {
    case FilterKind::Median:
      return compareAt(out, positions, tolerance, spec.window(), progress,
                       [&](std::size_t p) { return medianOutputAt(in, spec.medianWindow, spec.mode, p); });
    case FilterKind::Sos: {
      // A recursive filter's output depends on every sample before it (and, in zero phase, after):
      // every output is compared with one serial pass, in memory that does not grow with the signal.
      const OutputStretch whole[] = {{0, in.size()}};
      return verifySosStretches(in, spec, out, std::span<const OutputStretch>(whole), tolerance, progress);
    }
    case FilterKind::Correlation:
    case FilterKind::SavitzkyGolay:
      break;
  }
  return verifyCorrelation<Acc>(in, spec, out, positions, tolerance, progress);
}

}  // namespace

std::vector<std::size_t> verificationPositions(std::size_t samples, std::size_t window, const WorkSplits& splits,
                                               std::size_t randomCount, std::uint64_t seed) {
  std::vector<std::size_t> positions;
  if (randomCount >= samples) {
    // As many draws as outputs: check every output instead, so the positions never outgrow the
    // signal whatever the count (--verify 2^64 - 1 once grew them until memory ran out).
    positions.resize(samples);
    std::iota(positions.begin(), positions.end(), std::size_t{0});
    return positions;
  }
  // The ends and both sides of every cut as stretches [begin, end), joined in order and written
  // out: sorted and distinct as they come. A GPU engine's cuts every 256 outputs make 300,000
  // positions at 10M samples; sorting them took 10 ms of one core, as long as the engine's run.
  std::vector<std::pair<std::size_t, std::size_t>> stretches;
  const auto addCut = [&](std::size_t cut) {
    const std::size_t begin = cut > kOutputsEachSideOfCut ? cut - kOutputsEachSideOfCut : 0;
    const std::size_t end = std::min(samples, cut + kOutputsEachSideOfCut);
    if (begin < end) stretches.emplace_back(begin, end);
  };
  stretches.emplace_back(0, std::min(samples, window));
  stretches.emplace_back(samples > window ? samples - window : 0, samples);
  std::vector<std::size_t> pieces = splits.at;
  std::sort(pieces.begin(), pieces.end());
  for (const std::size_t cut : pieces) addCut(cut);
  if (splits.every > 0) {
    pieces.insert(pieces.begin(), 0);
    pieces.push_back(samples);
    for (std::size_t k = 0; k + 1 < pieces.size(); ++k) {
      for (std::size_t cut = pieces[k] + splits.every; cut < pieces[k + 1]; cut += splits.every) addCut(cut);
    }
  }
  std::sort(stretches.begin(), stretches.end());
  std::size_t covered = 0;  // positions [0, covered) are written or passed
  for (const auto& [begin, end] : stretches) {
    for (std::size_t p = std::max(begin, covered); p < end; ++p) positions.push_back(p);
    covered = std::max(covered, end);
  }
  if (samples == 0 || randomCount == 0) return positions;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::size_t> anywhere(0, samples - 1);
  std::vector<std::size_t> drawn(randomCount);
  for (std::size_t& p : drawn) p = anywhere(rng);
  std::sort(drawn.begin(), drawn.end());
  std::vector<std::size_t> all;
  all.reserve(positions.size() + drawn.size());
  std::set_union(positions.begin(), positions.end(), drawn.begin(), drawn.end(), std::back_inserter(all));
  all.erase(std::unique(all.begin(), all.end()), all.end());  // a position drawn twice
  return all;
}

Verification verifyOutputs(std::span<const double> in, const FilterSpec& spec, std::span<const double> out,
                           std::span<const std::size_t> positions, double tolerance, const Progress& progress) {
  return verifyAs<double>(in, spec, out, positions, tolerance, progress);
}

Verification verifyOutputs(std::span<const float> in, const FilterSpec& spec, std::span<const float> out,
                           std::span<const std::size_t> positions, double tolerance, const Progress& progress) {
  if (spec.accumulator == Accumulator::Float64) return verifyAs<double>(in, spec, out, positions, tolerance, progress);
  return verifyAs<float>(in, spec, out, positions, tolerance, progress);
}

void compareOutput(Verification& v, std::size_t position, double expected, double got, bool bitForBit, double tolerance) {
  compareOutputAs(v, position, expected, got, bitForBit, tolerance);
}

void compareOutput(Verification& v, std::size_t position, float expected, float got, bool bitForBit, double tolerance) {
  compareOutputAs(v, position, expected, got, bitForBit, tolerance);
}

void addVerification(Verification& total, const Verification& part) {
  if (part.mismatches > 0 && (total.mismatches == 0 || part.firstMismatch < total.firstMismatch)) {
    total.firstMismatch = part.firstMismatch;
  }
  total.checked += part.checked;
  total.mismatches += part.mismatches;
  total.maxAbsDiff = std::max(total.maxAbsDiff, part.maxAbsDiff);
  total.tolerance = std::max(total.tolerance, part.tolerance);
}

}  // namespace siglab
