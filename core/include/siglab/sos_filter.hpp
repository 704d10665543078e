#pragma once
// Filtering with second-order sections as scipy.signal does: sosfilt (direct form II transposed,
// section after section), sosfilt_zi's steady-state initial conditions, and sosfiltfilt's zero-phase
// forward-backward run over an odd extension. A serial reference and a parallel block scan.
#include <cstddef>
#include <span>
#include <vector>

#include "siglab/butterworth.hpp"
#include "siglab/progress.hpp"

namespace siglab {

// The cascade's state: two values per section, scipy's zi layout flattened (section-major).
using SosState = std::vector<double>;

// scipy.signal.sosfilt_zi: the state for a constant input of 1 at steady state.
SosState sosfiltZi(const Sections& sections);

// scipy.signal.sosfilt from `state` (zero when empty), which is left holding the final state.
// `out` may be `in` itself. Every form here reports progress and looks at Cancel (throwing
// Cancelled) every millisecond or so of work.
void sosfilt(const Sections& sections, std::span<const double> in, std::span<double> out, SosState& state,
             const Progress& progress = {});

// scipy.signal.sosfiltfilt's edge: 3 * (2 * sections + 1 - min(zeros in b2, zeros in a2)).
std::size_t sosfiltfiltPadLength(const Sections& sections);

// scipy.signal.sosfiltfilt(sos, x) with its defaults (padtype 'odd'). Throws std::invalid_argument
// when the signal is not longer than the pad length. `out` may be `in` itself.
void sosfiltfilt(const Sections& sections, std::span<const double> in, std::span<double> out,
                 const Progress& progress = {});

// The parallel forms. The recurrence is linear, so each block is filtered from zero state on its
// own core; then, serially, the true state at each block start (the previous block's zero-state
// final state plus the carried state propagated through it: A^L s) is carried forward, and its
// zero-input response, which decays like the poles, is added to the block's first outputs until
// every carried state is below eps times the bound (sosMagnitudes) of the block's input so far (or
// below 1e-290 and eps times the bound of the pass's input before the block), looked at every 256
// samples; the responses are stepped on every core, the walk that carries them is serial. The blocks are
// segments fixed in sample positions (sos_segment_scan.hpp), so the bits do not depend on the cores
// and a stream of whole segments gives them too. Where there are blocks enough, a core runs two to
// four at once, their wavefronts interleaved (the same bits).
// Returns this run's error bound:
// max |parallel - sosfilt| <= the value returned (see sosScanErrorBound).
double sosfiltParallel(const Sections& sections, std::span<const double> in, std::span<double> out,
                       const SosState& initial, const Progress& progress = {});
double sosfiltfiltParallel(const Sections& sections, std::span<const double> in, std::span<double> out,
                           const Progress& progress = {});

// Samples for the slowest pole's response to fall to 2^-53 of its start (radius r: 53 ln 2 / -ln r):
// how far past a block scan's cut its carried state shows (auto's rule takes the scan up to
// kSosScanDefaultFade, auto_engine_rule.hpp). Infinite for a pole on or outside the unit circle, 0
// for sections without poles.
double sosFadeLength(const Sections& sections);

// Where the parallel forms above start a block of `samples` outputs (both passes' blocks in zero
// phase): the outputs after a cut are where a wrongly carried state shows.
std::vector<std::size_t> sosScanCuts(const Sections& sections, std::size_t samples, bool zeroPhase);

// The cascade's l1 gains, from its impulse responses (run until they decay below 1e-17 of their
// peak, at most 2^20 steps). Totals: input to any state (max over states of sum |s_i[n]|), state to
// output (sum over n and states of |y[n]| from a unit state), input to output. Per state and per
// section they bound every value inside a run (sosMagnitudes) and weigh each rounding error by what
// it can do to the output (sosScanErrorBound).
struct SosGains {
  double inputToState = 0;
  double stateToOutput = 0;
  double inputToOutput = 0;
  bool decayed = true;  // false: the responses outlast 2^20 samples (poles at the unit circle)
  std::vector<double> stateFromInput;      // per state: sum |z_i[n]| for a unit impulse in
  std::vector<double> sectionFromInput;    // per section: sum |y_k[n]| for a unit impulse in
  std::vector<double> stateFromState;      // per state: sum over unit start states j of max |z_i[n]|
  std::vector<double> sectionFromState;    // per section: the same for its output y_k
  std::vector<double> outputFromState;     // per state: sum |y[n]| from that unit state
};
SosGains sosGains(const Sections& sections);

// Bounds on |z_i| and on each section's |y_k| at every step of a run over an input with
// max |x| = maxAbsInput from a start state with max |z| = maxAbsInitial. A steady start
// (sosfilt_zi times a sample of the input, as sosfiltfilt starts) is the state the input held
// forever would leave: pass maxAbsInitial = 0 for it, the input bound covers it.
struct SosMagnitudes {
  std::vector<double> state, sectionOutput;
};
SosMagnitudes sosMagnitudes(const SosGains& gains, double maxAbsInput, double maxAbsInitial);

// The first-order rounding bound of one parallel pass against the serial one. In each step, the
// rounding of section k's output and of its two state updates perturbs its states by at most
// eps (|b0| U + Y) + eps (2|b1| U + 2|a1| Y + Z0) and eps (2|b2| U + 2|a2| Y + Z1) (U, Y, Z: the
// section's input, output and state bounds of sosMagnitudes); each perturbation reaches the output
// with that state's l1 gain. Both passes are such recurrences, and so is the zero-state run whose
// end states the carry adds: 3 x the sum. The carried state's truncation (the CPU scan stops adding
// it once below eps times the state bound of the block's input so far, at most eps Z_i, so after a
// spike it carries on until the response fades below the quieter signal) and its rounding add
// 2 eps sum Z_i g_i, and adding it to an output eps Y. The
// GPU adds its own carry's rounding (sos_scan_kernels.cu). A zero-phase run adds the forward bound
// times inputToOutput to the backward one.
double sosScanErrorBound(const Sections& sections, const SosGains& gains, double maxAbsInput, double maxAbsInitial);

}  // namespace siglab
