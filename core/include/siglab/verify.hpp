#pragma once
// Checking an engine's result without a serial pass: the reference formula recomputed only where
// engines go wrong (the signal's ends, both sides of every cut the engine made) and at random.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/filter_backend.hpp"
#include "siglab/progress.hpp"

namespace siglab {

// Outputs checked on each side of a cut: the two nearest the cut read every sample of both
// halos, so a wrong halo, tail or restarted sum shows there.
inline constexpr std::size_t kOutputsEachSideOfCut = 4;
inline constexpr std::size_t kDefaultVerifyRandom = 4096;

/// What checking an engine's result found.
struct Verification {
  std::size_t checked = 0;        // outputs recomputed
  std::size_t mismatches = 0;     // outputs outside the tolerance (bits differing when it is 0)
  std::size_t firstMismatch = 0;  // index of the first of them
  double maxAbsDiff = 0.0;
  double tolerance = 0.0;
  bool passed() const { return mismatches == 0; }
};

// One output `got` at `position` against its reference `expected`, counted into `v`: bit for bit
// when `bitForBit`, else |got - expected| <= tolerance; two NaNs agree, a NaN against a number is an
// infinite difference (v.maxAbsDiff); v.firstMismatch is the lowest position that disagrees, in
// whatever order the outputs come. Every verification (verifyOutputs, verifySosStretches) compares
// through it.
void compareOutput(Verification& v, std::size_t position, double expected, double got, bool bitForBit, double tolerance);
void compareOutput(Verification& v, std::size_t position, float expected, float got, bool bitForBit, double tolerance);
// A part's counts added into `total` (parts checked on other threads): checked and mismatches add up,
// the largest difference and tolerance are kept, the lowest first mismatch wins in any order.
void addVerification(Verification& total, const Verification& part);

// The outputs worth checking, sorted and distinct: the first and last W, kOutputsEachSideOfCut
// on each side of every cut in `splits`, and `randomCount` drawn uniformly with `seed` (every
// output when `randomCount` is at least `samples`: never more positions than outputs).
std::vector<std::size_t> verificationPositions(std::size_t samples, std::size_t window, const WorkSplits& splits,
                                               std::size_t randomCount, std::uint64_t seed);

// Recomputes out[p] for every p in `positions` with cpu-serial's formula (same order, same
// accumulator; a median selects its window; Savitzky-Golay's interp edges are fitted again; a
// Butterworth filter, recursive, has no local formula: every output is compared with one serial
// pass in bounded memory, verifySosStretches) and compares: bit for bit when `tolerance` is 0,
// else |diff| <= tolerance. Two
// NaNs agree; a NaN against a number is an infinite difference. Reports the share of the work
// done and throws Cancelled within a millisecond or so of `progress`'s cancel.
Verification verifyOutputs(std::span<const double> in, const FilterSpec& spec, std::span<const double> out,
                           std::span<const std::size_t> positions, double tolerance, const Progress& progress = {});
Verification verifyOutputs(std::span<const float> in, const FilterSpec& spec, std::span<const float> out,
                           std::span<const std::size_t> positions, double tolerance, const Progress& progress = {});

}  // namespace siglab
