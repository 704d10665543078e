// How far apart two correct double-precision Welch spectra can be, bin by bin.
//
// One segment, n samples within +-A: after removing the mean and windowing, |xw_j| <= 2A |w_j|,
// so ||xw||^2 <= E = 4 A^2 sum w^2, and |X_k| <= sqrt(n) ||xw|| (Cauchy-Schwarz).
// - FFT rounding (Higham, Accuracy and Stability, Thm 24.2): ||dX||_2 <= ~5 u log2(n) ||X||_2 =
//   5 u log2(n) sqrt(n) ||xw||. Lengths that are not powers of two may go through Bluestein's
//   algorithm (three transforms of about 2n points), so we allow 3 x 5 u log2(2n) per bin.
// - The segment mean summed in blocks (8 lanes on the CPU, 256 threads on the GPU): its error
//   <= (n/8 + 8) u A moves each bin by at most that times sum|w_j| <= sqrt(n) sqrt(sum w^2).
// - Windowing and subtracting: 2 u per sample, the same shape as the mean's error.
// | |X^_k|^2 - |X_k|^2 | <= 2 |X_k| |dX_k| + |dX_k|^2, so per segment and bin, for one engine:
//   u n E (2 * 15 log2(2n) + n/8 + 16); averaging segments keeps it, scaling multiplies it by the
//   scale and the one-sided doubling by 2. Two engines: twice that.
// - Summing K segments' |X_k|^2 <= n E in any order: at most K u n E after the division by K.
// Relative to a white-noise bin (~ 2 scale sigma^2 sum w^2) this is about 1e-8 for n = 4096:
// a wrong index, window or scale is far outside it.
#include <cmath>
#include <limits>

#include "siglab/spectrum.hpp"

namespace siglab {

double spectrumAgreementBound(const WelchOptions& options, double maxAbsInput, std::size_t samples) {
  const double n = static_cast<double>(options.segment);
  const std::vector<double> w = spectrumWindow(options.window, options.segment);
  double sumSquares = 0.0;
  for (double v : w) sumSquares += v * v;
  const double u = std::numeric_limits<double>::epsilon() / 2.0;
  const double energy = 4.0 * maxAbsInput * maxAbsInput * sumSquares;
  const double perEngine = u * n * energy * (30.0 * std::ceil(std::log2(2.0 * n)) + n / 8.0 + 16.0 +
                                             static_cast<double>(segmentCount(options, samples)));
  return 2.0 * 2.0 * powerScale(options) * perEngine;
}

}  // namespace siglab
