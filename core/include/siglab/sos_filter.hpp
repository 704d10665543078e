#pragma once
// Filtering with second-order sections as scipy.signal does: sosfilt (direct form II transposed,
// section after section), sosfilt_zi's steady-state initial conditions, and sosfiltfilt's zero-phase
// forward-backward run over an odd extension. A serial reference and a parallel block scan.
#include <cstddef>
#include <span>
#include <vector>

#include "siglab/butterworth.hpp"

namespace siglab {

// The cascade's state: two values per section, scipy's zi layout flattened (section-major).
using SosState = std::vector<double>;

// scipy.signal.sosfilt_zi: the state for a constant input of 1 at steady state.
SosState sosfiltZi(const Sections& sections);

// scipy.signal.sosfilt from `state` (zero when empty), which is left holding the final state.
// `out` may be `in` itself.
void sosfilt(const Sections& sections, std::span<const double> in, std::span<double> out, SosState& state);

// scipy.signal.sosfiltfilt's edge: 3 * (2 * sections + 1 - min(zeros in b2, zeros in a2)).
std::size_t sosfiltfiltPadLength(const Sections& sections);

// scipy.signal.sosfiltfilt(sos, x) with its defaults (padtype 'odd'). Throws std::invalid_argument
// when the signal is not longer than the pad length.
void sosfiltfilt(const Sections& sections, std::span<const double> in, std::span<double> out);

// The parallel forms. The recurrence is linear, so each block is filtered from zero state on its
// own core; then, serially, the true state at each block start (the previous block's zero-state
// final state plus the carried state propagated through it: A^L s) is carried forward, and its
// zero-input response, which decays like the poles, is added to the block's first outputs until
// the carried state is below eps times the signal's state scale. Returns this run's error bound:
// max |parallel - sosfilt| <= the value returned (see sosScanErrorBound).
double sosfiltParallel(const Sections& sections, std::span<const double> in, std::span<double> out,
                       const SosState& initial);
double sosfiltfiltParallel(const Sections& sections, std::span<const double> in, std::span<double> out);

// The cascade's l1 gains, from its impulse responses (run until they decay below 1e-17 of their
// peak, at most 2^22 steps): input to any state (max over states of sum |s_i[n]|), state to
// output (sum over n and states of |y[n]| from a unit state), and input to output.
struct SosGains {
  double inputToState = 0;
  double stateToOutput = 0;
  double inputToOutput = 0;
  bool decayed = true;  // false: the responses outlast 2^22 samples (poles at the unit circle)
};
SosGains sosGains(const Sections& sections);

// The first-order rounding bound of one parallel pass over an input with max |x| = maxAbsInput
// from a state that is at most 2 * inputToState * maxAbsInput (steady-state initial conditions):
// three recurrences (serial, zero-state, correction) each add at most 4 (1 + max |coefficient|)
// eps M per state per step, M = 2 * inputToState * maxAbsInput + the initial state, which the
// filter carries to the output with total gain stateToOutput; the truncation adds eps M
// stateToOutput. A zero-phase run adds the forward bound times inputToOutput to the backward one.
double sosScanErrorBound(const Sections& sections, const SosGains& gains, double maxAbsInput, double maxAbsInitial);

}  // namespace siglab
