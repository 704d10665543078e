#include "siglab/cpu_fft.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "cpu_backend_timing.hpp"
#include "siglab/fft_convolution.hpp"

namespace siglab {

double CpuFftBackend::tolerance(const FilterSpec& spec, double maxAbsInput) const {
  // cpu-serial's own rounding: W products summed in order, gamma_W sum|taps| max|x|.
  const double u = std::numeric_limits<double>::epsilon() / 2;
  const double w = static_cast<double>(spec.window());
  double norm1 = 0.0;
  for (double t : spec.taps) norm1 += std::fabs(t);
  return fftFilterErrorBound(spec, maxAbsInput) + w * u / (1.0 - w * u) * norm1 * maxAbsInput;
}

FilterRun CpuFftBackend::run(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                             const RunOptions& options) {
  if (!std::all_of(in.begin(), in.end(), [](double v) { return std::isfinite(v); })) {
    return FilterRun{RunStatus::Unavailable, "cpu-fft needs finite samples (an FFT spreads NaN over its block)", {}, {}, {}};
  }
  return detail::timeCpuRuns(options, [&] { filterFft(in, spec, out); });
}

}  // namespace siglab
