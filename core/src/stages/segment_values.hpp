#pragma once
// What spectrogram and stft share: their segments' parameters (nperseg, noverlap, nfft, window,
// tukey-alpha, detrend), checked and read into SpectrogramOptions the same way.
#include <cstddef>
#include <string>

#include "kind_values.hpp"
#include "named_values.hpp"
#include "siglab/spectrogram.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::stages {

// noverlap below nperseg, as SciPy requires; throws StageError naming it.
inline void checkSegmentOverlap(const StageParameters& values) {
  const auto nperseg = static_cast<std::size_t>(wholeOf(values, "nperseg"));
  if (const auto noverlap = optionalWhole(values, "noverlap"); noverlap && *noverlap >= nperseg) {
    throw StageError("noverlap must be from 0 to nperseg - 1 = " + std::to_string(nperseg - 1) + ", got " +
                     std::to_string(*noverlap));
  }
}

inline void readSegmentValues(const StageParameters& values, SpectrogramOptions& o) {
  o.nperseg = static_cast<std::size_t>(wholeOf(values, "nperseg"));
  o.noverlap = optionalWhole(values, "noverlap");
  o.nfft = optionalWhole(values, "nfft");
  o.window = textOf(values, "window");
  o.tukeyAlpha = numberOf(values, "tukey-alpha");
  const std::string& detrend = textOf(values, "detrend");
  o.detrend = detrend == "constant" ? SegmentDetrend::constant
              : detrend == "linear" ? SegmentDetrend::linear
                                    : SegmentDetrend::none;
}

// "hann", "tukey 0.25": the window as reports name it.
inline std::string windowLabel(const SpectrogramOptions& o) {
  return o.window == "tukey" ? "tukey " + shortNumber(o.tukeyAlpha) : o.window;
}

}  // namespace siglab::stages
