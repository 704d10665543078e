#include "siglab/cpu_fft.hpp"

#include <algorithm>
#include <cmath>

#include "siglab/fft_convolution.hpp"
#include "siglab/measure.hpp"

namespace siglab {

std::string CpuFftBackend::whyNot(const FilterSpec& spec, SampleType type) const {
  if (type != SampleType::f64) return "cpu-fft has no float32 path";
  return whyNotCorrelation(spec, name());
}

double CpuFftBackend::tolerance(const FilterSpec& spec, double maxAbsInput) const {
  return fftEngineTolerance(spec, maxAbsInput);
}

FilterPass CpuFftBackend::filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                 const RunOptions& /*options*/, const Progress& progress) {
  if (!std::all_of(in.begin(), in.end(), [](double v) { return std::isfinite(v); })) {
    throw EngineUnavailable("cpu-fft needs finite samples (an FFT spreads NaN over its block)");
  }
  progress.throwIfCancelled();
  FilterPass pass;
  pass.phases = timeOnHost([&] { filterFft(in, spec, out); });
  pass.splits.every = fftBlockLength(spec.window()) - spec.window() + 1;  // each block's outputs
  return pass;
}

FilterPass CpuFftBackend::filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                                 const Progress&) {
  throw EngineUnavailable("cpu-fft has no float32 path");
}

}  // namespace siglab
