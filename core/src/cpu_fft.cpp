#include "siglab/cpu_fft.hpp"

#include <algorithm>
#include <cmath>

#include "cpu_backend_timing.hpp"
#include "siglab/fft_convolution.hpp"

namespace siglab {

double CpuFftBackend::tolerance(const FilterSpec& spec, double maxAbsInput) const {
  return fftEngineTolerance(spec, maxAbsInput);
}

FilterRun CpuFftBackend::run(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                             const RunOptions& options) {
  if (!std::all_of(in.begin(), in.end(), [](double v) { return std::isfinite(v); })) {
    return FilterRun{RunStatus::Unavailable, "cpu-fft needs finite samples (an FFT spreads NaN over its block)", {}, {}, {}};
  }
  return detail::timeCpuRuns(options, [&] { filterFft(in, spec, out); });
}

}  // namespace siglab
