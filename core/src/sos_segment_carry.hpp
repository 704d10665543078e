#pragma once
// The block scan's carry (sos_scan.cpp): the zero-input response of the state carried into a
// segment, added to its first outputs until it fades below the segment's own input so far (or a
// floor). A segment's response depends only on the state carried into it, and that is the previous
// segment's zero-start end state whenever the previous response faded inside its segment (nearly
// always): so the scan steps every segment's response at once from that guess, on every core, and
// its serial walk only finishes those whose guess was wrong or that had not faded within the guess's
// reach. The bits are the serial walk's alone: a response stepped in one go or resumed is the same.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "siglab/sos_filter.hpp"

namespace siglab::detail {

// Samples a response is stepped by between two looks at whether it faded: its steps run as a
// wavefront (sos_wavefront.cpp), and the fade is looked at chunk by chunk, from the segment's start.
inline constexpr std::int64_t kCarryChunk = 256;

// How far a response is stepped from a guessed start (a multiple of kCarryChunk): past it, the walk
// goes on where the guess was right, so slow poles cost no more than that per segment twice.
inline constexpr std::int64_t kCarryGuessReach = std::int64_t{1} << 13;

// One segment's response as far as it has been stepped.
struct SegmentResponse {
  std::int64_t begin = 0, end = 0;  // the segment, in the piece's positions
  std::int64_t at = 0;              // the next position to step
  SosState z;                       // the response's state at `at`
  double local = 0;                 // max |x| of the segment before `at`, capped by `peak`
  double peak = 0;                  // max |x| of the segment's input (in place: before its outputs)
  std::vector<double> floor;        // per state: below it the response has faded whatever the input
  std::vector<double> values;       // the response at begin .. at - 1
  bool faded = false;

  // Starts it over from `start`.
  void restart(const SosState& start);
};

// The floor of a segment whose pass's input before it is at most `inputBefore`: 1e-290 (no
// subnormals), or eps times the state bound of that input where that is smaller.
std::vector<double> carryFloor(const SosGains& gains, double inputBefore, double maxAbsInitial);

// Steps `r` until it fades or reaches `until` (capped by its end), in whole chunks from its start;
// x[i * stride] is the input (in place: the segment's outputs before the response is added).
void stepResponse(SegmentResponse& r, const Sections& sections, const SosGains& gains, const double* x,
                  std::ptrdiff_t stride, std::int64_t until);

}  // namespace siglab::detail
