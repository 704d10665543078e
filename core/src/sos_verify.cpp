#include "siglab/sos_verify.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <limits>
#include <random>

#include "siglab/filter_kinds.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/sos_scan_steps.hpp"
#include "largest_magnitude.hpp"
#include "siglab/work_progress.hpp"
#include "sos_step.hpp"
#include "usable_threads.hpp"

namespace siglab {
namespace {

// A zero-phase pass keeps the forward pass's state every this many samples, and recomputes each
// piece from it when the backward pass comes through: memory of one piece, not of the stretch.
constexpr std::size_t kCheckpointEvery = 4096;

std::size_t edgeOf(const FilterSpec& spec) {
  return spec.sos.zeroPhase ? sosfiltfiltPadLength(spec.sos.sections) : 0;
}

// The signal as the serial filter reads it: sosfiltfilt's odd extension at both ends in zero phase.
template <typename Sample>
struct Extended {
  std::span<const Sample> in;
  std::size_t edge = 0;
  std::size_t size() const { return in.size() + 2 * edge; }
  double operator[](std::size_t j) const {
    const std::size_t n = in.size();
    if (j < edge) return 2 * static_cast<double>(in[0]) - static_cast<double>(in[edge - j]);
    if (j >= edge + n) return 2 * static_cast<double>(in[n - 1]) - static_cast<double>(in[n - 2 - (j - edge - n)]);
    return static_cast<double>(in[j - edge]);
  }
};

double infinityNorm(const std::vector<double>& matrix, std::size_t d) {
  double largest = 0;
  for (std::size_t i = 0; i < d; ++i) {
    double row = 0;
    for (std::size_t j = 0; j < d; ++j) row += std::abs(matrix[i * d + j]);
    largest = std::max(largest, row);
  }
  return largest;
}

double largestState(const SosGains& gains, double maxAbsInput) {
  const SosMagnitudes m = sosMagnitudes(gains, maxAbsInput, 0.0);
  return m.state.empty() ? 0.0 : *std::max_element(m.state.begin(), m.state.end());
}

// Every output of one stretch, recomputed and compared into `v`.
template <typename Sample>
class StretchCheck {
 public:
  StretchCheck(std::span<const Sample> in, const FilterSpec& spec, std::span<const Sample> out, std::size_t warmUp)
      : ext_{in, edgeOf(spec)}, spec_(spec), out_(out), warmUp_(warmUp), sections_(spec.sos.sections),
        zi_(sosfiltZi(sections_)) {}

  // Whether the pass over `s` starts from the signal's exact states (then it is the reference).
  bool exact(OutputStretch s) const {
    const std::size_t lo = s.begin + ext_.edge, hi = s.end + ext_.edge;
    const bool forward = lo <= warmUp_;
    return spec_.sos.zeroPhase ? forward && ext_.size() - hi <= warmUp_ : forward;
  }

  // The sample steps compare(s) takes: the warm-up and the stretch, and in zero phase the forward
  // pass's run ahead, then each piece again forward and backward.
  std::uint64_t steps(OutputStretch s) const {
    const std::size_t lo = s.begin + ext_.edge, hi = s.end + ext_.edge;
    const std::size_t start = lo > warmUp_ ? lo - warmUp_ : 0;
    if (!spec_.sos.zeroPhase) return hi - start;
    const std::size_t stop = std::min(ext_.size(), hi + warmUp_);
    return (lo - start) + 3 * (stop - lo);
  }

  // Compares bit for bit when `bits`, else within `tolerance`; adds its steps to `work` and throws
  // Cancelled within samplesPerCancelCheck steps of a cancel.
  void compare(OutputStretch s, bool bits, double tolerance, Verification& v, WorkProgress& work) const {
    const std::size_t lo = s.begin + ext_.edge, hi = s.end + ext_.edge;
    const std::size_t start = lo > warmUp_ ? lo - warmUp_ : 0;
    SosState z(zi_.size(), 0.0);
    if (start == 0 && spec_.sos.zeroPhase) {
      for (std::size_t k = 0; k < z.size(); ++k) z[k] = zi_[k] * ext_[0];
    }
    run(z, start, lo, nullptr, work);
    if (!spec_.sos.zeroPhase) {  // each output as it comes, in pieces between looks at Cancel
      const std::size_t piece = detail::samplesPerCancelCheck(sections_.size());
      for (std::size_t from = lo; from < hi; from += piece) {
        work.throwIfCancelled();
        const std::size_t to = std::min(hi, from + piece);
        for (std::size_t j = from; j < to; ++j) {
          check(j, detail::sosStep(sections_.data(), sections_.size(), z.data(), ext_[j]), bits, tolerance, v);
        }
        work.add(to - from);
      }
      return;
    }
    // Forward to `stop`, keeping a state every kCheckpointEvery samples from `lo` on.
    const std::size_t stop = std::min(ext_.size(), hi + warmUp_);
    std::vector<SosState> saved;
    double last = 0;
    for (std::size_t from = lo; from < stop; from += kCheckpointEvery) {
      saved.push_back(z);
      const std::size_t to = std::min(stop, from + kCheckpointEvery);
      last = run(z, from, to, nullptr, work);
    }
    // Backward from `stop`: exact (sosfilt_zi times the last forward output) at the signal's end.
    SosState back(zi_.size(), 0.0);
    if (stop == ext_.size()) {
      for (std::size_t k = 0; k < back.size(); ++k) back[k] = zi_[k] * last;
    }
    std::vector<double> piece(kCheckpointEvery);
    for (std::size_t c = saved.size(); c-- > 0;) {
      const std::size_t from = lo + c * kCheckpointEvery, to = std::min(stop, from + kCheckpointEvery);
      SosState forward = saved[c];
      run(forward, from, to, piece.data(), work);
      work.throwIfCancelled();
      detail::sosRange(sections_.data(), sections_.size(), back.data(), piece.data() + (to - from) - 1,
                       piece.data() + (to - from) - 1, -1, to - from);
      work.add(to - from);
      for (std::size_t j = std::max(from, lo); j < std::min(to, hi); ++j) {
        check(j - ext_.edge, piece[j - from], bits, tolerance, v);
      }
    }
  }

 private:
  // The forward recursion over extended samples [from, to) from `z`; outputs into y unless null.
  // Returns the last output. Runs in pieces between looks at Cancel, the state carried across
  // them (the same steps, so the same bits), as sosRangeChecked does for the engines.
  double run(SosState& z, std::size_t from, std::size_t to, double* y, WorkProgress& work) const {
    const std::size_t piece = detail::samplesPerCancelCheck(sections_.size());
    double last = 0;
    for (std::size_t begin = from; begin < to; begin += piece) {
      work.throwIfCancelled();
      const std::size_t end = std::min(to, begin + piece);
      for (std::size_t j = begin; j < end; ++j) {
        last = detail::sosStep(sections_.data(), sections_.size(), z.data(), ext_[j]);
        if (y) y[j - from] = last;
      }
      work.add(end - begin);
    }
    return last;
  }

  // The backward pass meets later outputs first: compareOutput keeps the lowest mismatch.
  void check(std::size_t p, double reference, bool bits, double tolerance, Verification& v) const {
    // A float32 run is the float64 pass rounded once.
    compareOutput(v, p, static_cast<Sample>(reference), out_[p], bits, tolerance);
  }

  Extended<Sample> ext_;
  const FilterSpec& spec_;
  std::span<const Sample> out_;
  std::size_t warmUp_;
  const Sections& sections_;
  SosState zi_;
};

double elapsedMs(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

template <typename Sample>
Verification verifyStretchesAs(std::span<const Sample> in, const FilterSpec& spec, std::span<const Sample> out,
                               std::span<const OutputStretch> stretches, const ToleranceFor& toleranceFor,
                               double budgetMs, const Progress& progress) {
  const auto start = std::chrono::steady_clock::now();
  validate(spec);
  const auto [largest, finite] = detail::largestMagnitude(in, progress);
  const double tolerance = toleranceFor(largest);
  Verification v;
  v.tolerance = tolerance;
  // A NaN or infinity stays in the state for good: only passes from the exact start reproduce it.
  const std::size_t warmUp = finite ? sosWarmUpSamples(spec, largest, in.size()) : in.size() + 2 * edgeOf(spec);
  const double restart = sosKindTolerance(spec, largest, std::is_same_v<Sample, float>);
  const StretchCheck<Sample> check(in, spec, out, warmUp);
  const auto clip = [&](OutputStretch s) { return OutputStretch{std::min(s.begin, in.size()), std::min(s.end, in.size())}; };
  std::uint64_t steps = 0;
  for (const OutputStretch s : stretches) {
    const OutputStretch clipped = clip(s);
    if (clipped.begin < clipped.end) steps += check.steps(clipped);
  }
  WorkProgress work(progress, steps);
  // Each stretch is its own serial pass: a round of them runs on every core (one in a forked child),
  // progress and the budget looked at between rounds. The ends and the engine's cuts (the first
  // 2 + kSosCutStretches, where engines go wrong) always, however slow the machine; the random
  // ones while the time lasts.
  const std::size_t threads = detail::usableThreads();
  Progress cancelOnly;  // a stretch in a round looks at Cancel; progress is reported from here
  cancelOnly.cancelFlag = progress.cancelFlag;
  std::vector<Verification> parts(threads);
  std::vector<std::exception_ptr> errors(threads);
  std::vector<std::uint64_t> partSteps(threads);
  const auto checkInto = [&](OutputStretch s, Verification& into, WorkProgress& stretchWork) {
    const OutputStretch clipped = clip(s);
    if (clipped.begin >= clipped.end) return;
    const bool exact = check.exact(clipped);
    const double allowed = exact ? tolerance : tolerance + restart;
    into.tolerance = std::max(into.tolerance, allowed);
    check.compare(clipped, exact && tolerance == 0.0, allowed, into, stretchWork);
  };
  for (std::size_t begin = 0; begin < stretches.size(); begin += threads) {
    if (begin >= 2 + kSosCutStretches && elapsedMs(start) >= budgetMs) break;
    const std::size_t count = std::min(threads, stretches.size() - begin);
    if (count == 1) {  // one pass (the full check): on this thread, reporting as it goes
      checkInto(stretches[begin], v, work);
      continue;
    }
#pragma omp parallel for schedule(dynamic, 1) num_threads(static_cast<int>(count))
    for (std::int64_t k = 0; k < static_cast<std::int64_t>(count); ++k) {
      const auto i = static_cast<std::size_t>(k);
      parts[i] = Verification{};
      partSteps[i] = 0;
      try {
        WorkProgress stretchWork(cancelOnly, 0);
        checkInto(stretches[begin + i], parts[i], stretchWork);
        const OutputStretch clipped = clip(stretches[begin + i]);
        partSteps[i] = clipped.begin < clipped.end ? check.steps(clipped) : 0;
      } catch (...) {
        errors[i] = std::current_exception();
      }
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (errors[i]) std::rethrow_exception(errors[i]);
    }
    for (std::size_t i = 0; i < count; ++i) {
      addVerification(v, parts[i]);
      work.add(partSteps[i]);
    }
  }
  return v;
}

}  // namespace

std::size_t sosWarmUpSamples(const FilterSpec& spec, double maxAbsInput, std::size_t samples) {
  const std::size_t longest = samples + 2 * edgeOf(spec);
  const SosGains gains = sosGains(spec.sos.sections);
  if (!gains.decayed) return longest;
  const double target = std::ldexp(sosKindTolerance(spec, maxAbsInput, false), -20);
  if (target == 0.0) return 0;  // a silent signal: every state is zero
  // What a wrong start state (at most the true one's bound) can still do to an output after D steps.
  double reach = 0;
  if (spec.sos.zeroPhase) {
    SosState zi = sosfiltZi(spec.sos.sections);
    double ziMax = 0;
    for (const double z : zi) ziMax = std::max(ziMax, std::abs(z));
    const double forwardInput = 3 * maxAbsInput;
    const double forwardOutput = gains.inputToOutput * forwardInput + gains.stateToOutput * ziMax * forwardInput;
    reach = largestState(gains, forwardInput) * gains.stateToOutput * gains.inputToOutput +
            largestState(gains, forwardOutput) * gains.stateToOutput;
  } else {
    reach = largestState(gains, maxAbsInput) * gains.stateToOutput;
  }
  const std::size_t d = 2 * spec.sos.sections.size();
  std::size_t warmUp = 64;
  while (warmUp < longest && infinityNorm(sosTransitionPower(spec.sos.sections, static_cast<std::int64_t>(warmUp)), d) *
                                     reach > target) {
    warmUp *= 2;
  }
  return std::min(warmUp, longest);
}

std::vector<OutputStretch> sosVerificationStretches(std::size_t samples, const FilterSpec& spec,
                                                    const WorkSplits& splits, std::size_t randomOutputs,
                                                    std::uint64_t seed) {
  std::vector<OutputStretch> stretches;
  if (samples == 0) return stretches;
  if (samples <= kSosFullCheckSamples) return {{0, samples}};
  const std::size_t length = std::min(kSosStretchOutputs, samples);
  auto at = [&](std::size_t begin) {
    begin = std::min(begin, samples - length);
    return OutputStretch{begin, begin + length};
  };
  stretches.push_back(at(0));
  stretches.push_back(at(samples - length));
  // Work is counted in sample steps: a zero-phase stretch runs ahead, forward twice and backward.
  const std::size_t warmUp = sosWarmUpSamples(spec, 1.0, samples);
  const double passes = spec.sos.zeroPhase ? 2.0 : 1.0;
  const double each = spec.sos.zeroPhase ? static_cast<double>(warmUp) + 3.0 * static_cast<double>(length + warmUp)
                                         : static_cast<double>(warmUp + length);
  const double budget = std::max(kSosVerifyMinSteps, kSosVerifyWorkFraction * passes * static_cast<double>(samples));
  std::size_t more = each > 0 ? static_cast<std::size_t>(std::max(0.0, budget / each - 2.0)) : 0;
  std::mt19937_64 rng(seed);
  // The engine's cuts first (where a carried state shows), spread over them, then random outputs.
  std::vector<std::size_t> cuts = splits.at;
  if (splits.every > 0) {
    std::uniform_int_distribution<std::size_t> multiple(1, std::max<std::size_t>(1, samples / splits.every));
    for (std::size_t k = 0; k < kSosCutStretches; ++k) cuts.push_back(multiple(rng) * splits.every);
  }
  std::sort(cuts.begin(), cuts.end());
  const std::size_t cutCount = std::min({cuts.size(), kSosCutStretches, more});
  for (std::size_t k = 0; k < cutCount; ++k) {
    const std::size_t cut = cuts[k * cuts.size() / cutCount];
    stretches.push_back(at(cut > length / 2 ? cut - length / 2 : 0));
  }
  more -= cutCount;
  const std::size_t randomCount = std::min(more, (randomOutputs + length - 1) / length);
  std::uniform_int_distribution<std::size_t> anywhere(0, samples - length);
  for (std::size_t k = 0; k < randomCount; ++k) stretches.push_back(at(anywhere(rng)));
  std::vector<OutputStretch> distinct;  // in order of importance; one that overlaps an earlier one is left out
  for (const OutputStretch s : stretches) {
    const bool overlaps = std::any_of(distinct.begin(), distinct.end(),
                                      [&](OutputStretch d) { return s.begin < d.end && d.begin < s.end; });
    if (!overlaps) distinct.push_back(s);
  }
  return distinct;
}

Verification verifySosStretches(std::span<const double> in, const FilterSpec& spec, std::span<const double> out,
                                std::span<const OutputStretch> stretches, const ToleranceFor& toleranceFor,
                                double budgetMs, const Progress& progress) {
  return verifyStretchesAs<double>(in, spec, out, stretches, toleranceFor, budgetMs, progress);
}

Verification verifySosStretches(std::span<const float> in, const FilterSpec& spec, std::span<const float> out,
                                std::span<const OutputStretch> stretches, const ToleranceFor& toleranceFor,
                                double budgetMs, const Progress& progress) {
  return verifyStretchesAs<float>(in, spec, out, stretches, toleranceFor, budgetMs, progress);
}

Verification verifySosStretches(std::span<const double> in, const FilterSpec& spec, std::span<const double> out,
                                std::span<const OutputStretch> stretches, double tolerance, const Progress& progress) {
  return verifySosStretches(in, spec, out, stretches, [tolerance](double) { return tolerance; },
                            std::numeric_limits<double>::infinity(), progress);
}

Verification verifySosStretches(std::span<const float> in, const FilterSpec& spec, std::span<const float> out,
                                std::span<const OutputStretch> stretches, double tolerance, const Progress& progress) {
  return verifySosStretches(in, spec, out, stretches, [tolerance](double) { return tolerance; },
                            std::numeric_limits<double>::infinity(), progress);
}

}  // namespace siglab
