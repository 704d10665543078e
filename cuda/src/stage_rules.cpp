// What the stage engines of cuda_stages.hpp take and promise, the same with or without CUDA.
#include <cmath>
#include <limits>

#include "siglab/cuda_stages.hpp"

namespace siglab {

bool gpuFindsPeaks(const PeakOptions& options) { return !options.measuresProminence() && !options.hasMaxima(); }

// A frame's transform X_k sums nperseg windowed samples, each at most 2 maxAbs once detrended, so
// |X_k| <= S = 2 maxAbs sum |w|. Both FFTs (cuFFT, FFTW) are accurate to a few log2(nfft) eps of
// S, and the mean to log2(nperseg) eps of maxAbs: delta = 8 (log2 nfft + 2) eps S bounds their
// difference with room. psd |X|^2 scale (doubled) moves by at most 2 scale (2 S delta + delta^2);
// magnitude and complex by scale delta.
double spectrogramAgreementBound(const SpectrogramLayout& layout, double maxAbsInput) {
  double windowSum = 0.0;
  for (const double w : layout.window) windowSum += std::abs(w);
  const double s = 2.0 * maxAbsInput * windowSum;
  const double delta = 8.0 * (std::log2(static_cast<double>(std::max<std::size_t>(layout.nfft, 2))) + 2.0) *
                       std::numeric_limits<double>::epsilon() * s;
  if (layout.mode == SpectrogramMode::psd) return 2.0 * layout.scale * (2.0 * s * delta + delta * delta);
  return layout.scale * delta;
}

}  // namespace siglab
