#include "siglab/cpu_fft.hpp"

#include <algorithm>
#include <cmath>

#include "siglab/fft_convolution.hpp"
#include "siglab/measure.hpp"

namespace siglab {
namespace {

// In stretches of a millisecond or so, looking at `progress` between them: a long signal's scan
// must not hold up Cancel.
bool allFinite(std::span<const double> in, const Progress& progress) {
  constexpr std::size_t kStretch = std::size_t{1} << 20;
  for (std::size_t begin = 0; begin < in.size(); begin += kStretch) {
    progress.throwIfCancelled();
    const auto stretch = in.subspan(begin, std::min(kStretch, in.size() - begin));
    if (!std::all_of(stretch.begin(), stretch.end(), [](double v) { return std::isfinite(v); })) return false;
  }
  return true;
}

}  // namespace

std::string CpuFftBackend::whyNot(const FilterSpec& spec, SampleType type) const {
  if (type != SampleType::f64) return "cpu-fft has no float32 path";
  return whyNotCorrelation(spec, name());
}

double CpuFftBackend::tolerance(const FilterSpec& spec, double maxAbsInput) const {
  return fftEngineTolerance(spec, maxAbsInput);
}

FilterPass CpuFftBackend::filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                 const RunOptions& /*options*/, const Progress& progress) {
  if (!allFinite(in, progress)) throw EngineUnavailable("cpu-fft needs finite samples (an FFT spreads NaN over its block)");
  FilterPass pass;
  pass.phases = timeOnHost([&] { filterFft(in, spec, out, progress); });
  pass.splits.every = fftBlockLength(spec.window()) - spec.window() + 1;  // each block's outputs
  return pass;
}

FilterPass CpuFftBackend::filter(std::span<const float>, const FilterSpec&, std::span<float>, const RunOptions&,
                                 const Progress&) {
  throw EngineUnavailable("cpu-fft has no float32 path");
}

}  // namespace siglab
