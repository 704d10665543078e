#pragma once
// Polyphase FIR filtering with a rate change, as scipy.signal.upfirdn computes it: the input
// upsampled by `up` (zeros between samples), correlated with the taps h, downsampled by `down`.
// Output j reads the upsampled position s = j down + offset and sums h[s - i up] x[i] over the
// inputs i the taps reach (inputs past either end are zero). upfirdn is offset 0; resample_poly
// and decimate's FIR keep the outputs centred on the taps (offset = their half length).
//
// Every output is computed alone by outputAt, its products summed in one fixed order, so the
// serial run, the parallel run (outputs shared out in pieces) and a streamed run (inputs held
// only as far as the taps reach) give the same bits.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/progress.hpp"

namespace siglab {

class Polyphase {
 public:
  // Throws std::invalid_argument for no taps, up or down below 1, or a negative offset.
  Polyphase(std::vector<double> taps, std::int64_t up, std::int64_t down, std::int64_t offset);

  std::int64_t up() const { return up_; }
  std::int64_t down() const { return down_; }
  std::size_t tapCount() const { return tapCount_; }
  std::int64_t offset() const { return offset_; }
  // Phase p's taps in the order outputAt multiplies them (h[p + m up], m = count-1 .. 0), for an
  // engine that computes outputAt elsewhere (the GPU's polyphase kernel).
  std::span<const double> phaseTaps(std::int64_t p) const { return phases_[static_cast<std::size_t>(p)]; }

  // Output j of a signal of n inputs; x[i - base] is input i for every input the output reads
  // (firstInput(j) .. lastInput(j, n)).
  double outputAt(std::int64_t j, const double* x, std::int64_t base, std::int64_t n) const;
  // The inputs output j reads: from firstInput(j) to lastInput(j, n), clipped to the signal.
  std::int64_t firstInput(std::int64_t j) const;
  std::int64_t lastInput(std::int64_t j, std::int64_t n) const;

  // out[j] = outputAt(j) for j in [0, out.size()); `parallel`: pieces shared out among threads.
  // Looks at Cancel every piece (throws Cancelled) and reports progress.
  void run(std::span<const double> x, std::span<double> out, bool parallel, const Progress& progress = {}) const;

 private:
  // The output at upsampled position s = top up + phaseIndex: phase phaseIndex's taps against
  // inputs top - count + 1 .. top (clipped to the signal).
  double dot(std::int64_t phaseIndex, std::int64_t top, const double* x, std::int64_t base, std::int64_t n) const;

  std::int64_t up_, down_, offset_;
  std::size_t tapCount_;
  // phases_[p]: the taps h[p + m up], m = count-1 .. 0 (so a dot product runs over increasing input).
  std::vector<std::vector<double>> phases_;
};

// scipy.signal.upfirdn's output length: ceil(((n - 1) up + taps) / down) (floored as Python does for n = 0).
std::uint64_t upfirdnLength(std::uint64_t n, std::uint64_t taps, std::uint64_t up, std::uint64_t down);

}  // namespace siglab
