#pragma once
// Checking a recursive (sections) filter's result in bounded memory: serial passes over stretches
// of the output, each started far enough ahead that the state it could not know has faded below
// the tolerance, or at the signal's own start (and end, for zero phase) with scipy's exact states,
// where the pass is the reference bit for bit. A stretch over the whole signal is the full check.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <vector>

#include "siglab/filter_backend.hpp"
#include "siglab/filter_spec.hpp"
#include "siglab/progress.hpp"
#include "siglab/verify.hpp"

namespace siglab {

// Outputs each stretch compares.
inline constexpr std::size_t kSosStretchOutputs = 1024;
// Stretches placed at the engine's cuts (where a carried state goes wrong), at most.
inline constexpr std::size_t kSosCutStretches = 4;
// A signal this short is checked whole (three serial passes of at most this many samples).
inline constexpr std::size_t kSosFullCheckSamples = std::size_t{1} << 16;
// The default check does at most this fraction of the serial filter's own sample steps, or
// kSosVerifyMinSteps (a few milliseconds) where that is more.
inline constexpr double kSosVerifyWorkFraction = 0.05;
inline constexpr double kSosVerifyMinSteps = 1 << 18;
// And applyFilter stops starting stretches past this fraction of the engine's own time, or past
// kSosVerifyMinMs where that is more.
inline constexpr double kSosVerifyTimeFraction = 0.08;
inline constexpr double kSosVerifyMinMs = 5.0;

// Outputs [begin, end) of the signal.
struct OutputStretch {
  std::size_t begin = 0, end = 0;
};

// The stretches the default check compares, most telling first: the whole of a signal of at most
// kSosFullCheckSamples; else the first and last, up to kSosCutStretches at the engine's cuts, and
// ceil(randomOutputs / kSosStretchOutputs) at random (drawn with `seed`); as many as
// kSosVerifyWorkFraction allows given the warm-up they need (the first and last always). None
// overlaps another.
std::vector<OutputStretch> sosVerificationStretches(std::size_t samples, const FilterSpec& spec,
                                                    const WorkSplits& splits, std::size_t randomOutputs,
                                                    std::uint64_t seed);

// Samples a pass runs ahead of a stretch so that the unknown state it starts from (zero) reaches
// every output by at most 2^-20 of `restartTolerance` (sosKindTolerance's bound for a restarted
// pass), given samples with |x| <= maxAbsInput; the signal's length when it never fades that far.
std::size_t sosWarmUpSamples(const FilterSpec& spec, double maxAbsInput, std::size_t samples);

// Recomputes every output in `stretches` with the serial recursion (in float64; a float32 result
// is compared with the pass rounded to float) in memory that does not grow with the signal beyond
// one saved state per 4096 samples of a pass, and compares within toleranceFor(the input's
// largest finite |sample|), plus the restart's own bound for a stretch that could not start at
// the signal's ends (bit for bit otherwise, when that tolerance is 0). The stretches run a round
// at a time, one on each core; after the ends and the cuts, no round starts once `budgetMs` have
// passed since the call. Reports the share of the
// sample steps done and throws Cancelled within a millisecond or so of `progress`'s cancel, inside
// a stretch too (a whole-signal pass runs in pieces, its state carried: the same bits).
using ToleranceFor = std::function<double(double maxAbsInput)>;
Verification verifySosStretches(std::span<const double> in, const FilterSpec& spec, std::span<const double> out,
                                std::span<const OutputStretch> stretches, const ToleranceFor& toleranceFor,
                                double budgetMs = std::numeric_limits<double>::infinity(),
                                const Progress& progress = {});
Verification verifySosStretches(std::span<const float> in, const FilterSpec& spec, std::span<const float> out,
                                std::span<const OutputStretch> stretches, const ToleranceFor& toleranceFor,
                                double budgetMs = std::numeric_limits<double>::infinity(),
                                const Progress& progress = {});
// The same with a fixed tolerance and no time budget.
Verification verifySosStretches(std::span<const double> in, const FilterSpec& spec, std::span<const double> out,
                                std::span<const OutputStretch> stretches, double tolerance,
                                const Progress& progress = {});
Verification verifySosStretches(std::span<const float> in, const FilterSpec& spec, std::span<const float> out,
                                std::span<const OutputStretch> stretches, double tolerance,
                                const Progress& progress = {});

}  // namespace siglab
