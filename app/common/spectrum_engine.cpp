#include "spectrum_engine.hpp"

#include <utility>

#include "siglab/cuda_spectrum.hpp"

namespace siglab {

WelchEngineChoice welchEngineHere(const std::string& requested, const std::vector<int>& devices) {
  return chooseWelchEngine(requested, devices, gpuSpectrumUnavailableReason());
}

Spectrum welchOn(std::span<const double> samples, const WelchOptions& options, WelchEngineChoice& choice) {
  if (choice.engine == WelchEngine::gpu) {
    GpuSpectrumRun gpu = welchGpu(samples, options, 0, choice.devices);
    if (gpu.ok) return std::move(gpu.spectrum);
    choice = welchCpuFallback(gpu.message);
  }
  return welch(samples, options);
}

Spectrum welchOnEngine(std::span<const double> samples, const WelchOptions& options, const std::string& engine,
                       const std::vector<int>& devices, std::string& note) {
  WelchEngineChoice choice = welchEngineHere(engine, devices);
  Spectrum spectrum = welchOn(samples, options, choice);
  note = choice.note();
  return spectrum;
}

}  // namespace siglab
