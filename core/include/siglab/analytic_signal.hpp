#pragma once
// The analytic signal x + i H(x), as scipy.signal.hilbert computes it: the FFT of the whole signal,
// its negative frequencies zeroed and its positive ones doubled (DC and Nyquist kept), transformed
// back. Every output depends on the whole signal, so a long one is done by overlapped blocks
// (OverlappedAnalytic): each block of outputs is the analytic signal of the block with `halo`
// inputs on either side, within a stated bound of the whole transform (see the envelope stage).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <vector>

namespace siglab {

// re[i] + i im[i] = scipy.signal.hilbert(x)[i] (FFTW, within the FFT's rounding of SciPy's
// pocketfft; re is x itself). `parallel`: FFTW's threads on every core (rounding may differ from
// serial in the last bits). re, im and x are the same length; re may be x itself.
void analyticSignal(std::span<const double> x, std::span<double> re, std::span<double> im, bool parallel = false);

// Its imaginary part alone (the Hilbert transform), into `im`.
void hilbertTransform(std::span<const double> x, std::span<double> im, bool parallel = false);

// The reference for a few outputs: im[t] at each of `positions` as the circular sum of x with the
// transform's kernel (closed form, long double sums); O(n), for verification.
std::vector<double> hilbertAt(std::span<const double> x, std::span<const std::size_t> positions);

// The sizes of the streamed transform: outputs a block, and inputs read on either side of it.
struct AnalyticBlocks {
  std::size_t block = std::size_t{1} << 18;
  std::size_t halo = std::size_t{1} << 16;
};

// What OverlappedAnalytic's default blocks promise against the whole-signal transform, as the
// stages state it (tests/core/envelope_test.cpp measures it on several signal kinds).
inline constexpr std::string_view kOverlappedAnalyticBound =
    "overlapped blocks of 262144 outputs, each transformed with 65536 inputs either side: within 3e-3 x max|x| "
    "of the whole signal's transform for content above 1/2000 cycles/sample (2e-3 for noise, 2e-4 for tones "
    "above 0.01), except the first and last 65536 outputs, which the whole transform wraps into each other; "
    "slower drift is not bounded";

// The analytic signal of a stream, block by block, in memory bounded by block + 2 halo: push the
// inputs as they come, finish() after the last; `emit` gets the outputs in order (re, im, one size).
class OverlappedAnalytic {
 public:
  using Emit = std::function<void(std::span<const double> re, std::span<const double> im)>;
  // The transform of one overlapped block, x into im (empty: hilbertTransform, serial; a GPU engine's).
  using Transform = std::function<void(std::span<const double> x, std::span<double> im)>;
  OverlappedAnalytic(Emit emit, AnalyticBlocks sizes = {}, Transform transform = {});
  void push(std::span<const double> x);
  void finish();

 private:
  // Transforms the block of outputs starting at next_, with what is held after it (all of it at the end).
  void emitBlock(bool atEnd);

  Emit emit_;
  AnalyticBlocks sizes_;
  Transform transform_;
  std::vector<double> held_;   // inputs heldFrom_ .. heldFrom_ + size
  std::uint64_t heldFrom_ = 0;
  std::uint64_t next_ = 0;     // the next output
  std::vector<double> re_, im_;
};

}  // namespace siglab
