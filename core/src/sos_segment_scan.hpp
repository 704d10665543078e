#pragma once
// The sections' block scan (sos_scan.cpp) over segments fixed in sample positions: kScanSegment
// samples counted from a pass's first sample (the backward pass's first is the signal's last). Every
// segment but the pass's first runs from zero state on its own core; then, serially, the true state
// before it is carried in and its zero-input response added to its first outputs until it fades
// (each response stepped on the cores beforehand from a guessed start: sos_segment_carry.hpp).
// A pass run in pieces that start on segment boundaries (a stream's blocks) gives the bits of the
// pass run at once, whatever the pieces, the block size and the cores.
#include <cstddef>
#include <cstdint>
#include <span>

#include "parallel_range.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/work_progress.hpp"

namespace siglab::detail {

inline constexpr std::int64_t kScanSegment = std::int64_t{1} << 16;

// Where a pass stands between two pieces.
struct ScanCarry {
  SosState state;            // the true state before the next segment
  bool first = true;         // the next segment is the pass's first: it runs from `state` itself
  double inputSoFar = 0;     // max |x| of the pass's input so far, from its floor (the extension's edge)
  double maxAbsInitial = 0;  // the start state's size (sosMagnitudes), 0 for a steady start
};

// Only every q-th output of the pass: kept[j] receives the output at pass position j q; of the
// others only those in `whole` (positions of the piece, sorted) are written to y.
struct ScanKeep {
  std::uint64_t q = 1;
  std::uint64_t at = 0;  // the pass position of this piece's first sample
  double* kept = nullptr;
  std::span<const IndexRange> whole;
};

// The next `n` samples of a pass, x[0], x[stride], ... into y at the same positions (y may be x;
// with `keep`, y only in keep.whole, and the stride must be 1). The piece starts on a segment boundary
// and ends on one unless the pass ends with it. Sections whose responses do not decay
// (SosGains::decayed false) run the recursion itself. Throws Cancelled.
void sosScanPiece(const Sections& sections, const SosGains& gains, const double* x, double* y, std::int64_t n,
                  std::ptrdiff_t stride, ScanCarry& carry, WorkProgress& work, const ScanKeep* keep = nullptr);

}  // namespace siglab::detail
