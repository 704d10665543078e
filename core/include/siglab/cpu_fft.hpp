#pragma once
#include <span>

#include "siglab/filter_backend.hpp"

namespace siglab {

// filterFft (fft_convolution.hpp) as an engine: FFTW overlap-save on every core, for any taps and
// every boundary mode; O(N log M) whatever W, so long windows (a Gaussian of sigma 1000 has 8001
// taps) cost little more than short ones. Not bit-identical: its tolerance is the FFT's bound
// plus the rounding cpu-serial itself may make. No float32 path; non-finite samples, which an FFT
// would spread over a whole block, are refused (EngineUnavailable).
class CpuFftBackend final : public FilterBackend {
 public:
  std::string_view name() const override { return "cpu-fft"; }
  std::string_view description() const override {
    return "CPU, FFTW overlap-save in cache-sized blocks, all cores; any taps; not bit-identical";
  }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override;
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override;
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& options, const Progress& progress = {}) override;
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                    const RunOptions& options, const Progress& progress = {}) override;
};

}  // namespace siglab
