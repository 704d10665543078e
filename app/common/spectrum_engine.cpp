#include "spectrum_engine.hpp"

#include <utility>

#include "siglab/cuda_spectrum.hpp"

namespace siglab {

WelchEngineChoice welchEngineHere(const std::string& requested, const std::vector<int>& devices, std::uint64_t samples) {
  return chooseWelchEngine(requested, devices, gpuSpectrumUnavailableReason(), samples);
}

WelchRun welchRunFor(WelchEngineChoice& choice) {
  return [&choice](std::span<const double> samples, const WelchOptions& options, const Progress& progress) {
    if (choice.engine == WelchEngine::gpu) {
      GpuSpectrumRun gpu = welchGpu(samples, options, 0, choice.devices, progress);
      if (gpu.ok) return std::move(gpu.spectrum);
      choice = welchCpuFallback(gpu.message);
    }
    return welch(samples, options, progress);
  };
}

Spectrum welchOnEngine(std::span<const double> samples, const WelchOptions& options, const std::string& engine,
                       const std::vector<int>& devices, std::string& note) {
  WelchEngineChoice choice = welchEngineHere(engine, devices, samples.size());
  Spectrum spectrum = welchOfRange(WelchSource{samples}, {}, options, welchRunFor(choice));
  note = choice.note();
  return spectrum;
}

}  // namespace siglab
