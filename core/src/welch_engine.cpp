#include "siglab/welch_engine.hpp"

#include <stdexcept>

#include "siglab/device_list.hpp"

namespace siglab {

std::string WelchEngineChoice::note() const {
  if (engine == WelchEngine::gpu) return devices.size() > 1 ? "gpu (cuFFT) on " + formatDevicePlacement(devices) : "gpu (cuFFT)";
  return reason.empty() ? "cpu (FFTW)" : "cpu (FFTW); the GPU could not run it: " + reason;
}

WelchEngineChoice chooseWelchEngine(std::string_view requested, const std::vector<int>& devices,
                                    std::string_view gpuUnavailable) {
  if (requested != "auto" && requested != "cpu" && requested != "gpu") {
    throw std::invalid_argument("engine must be auto, cpu or gpu for a spectrum, not \"" + std::string(requested) + "\"");
  }
  if (requested == "cpu") return {};
  if (!gpuUnavailable.empty()) {
    if (requested == "gpu") {
      throw std::invalid_argument("engine gpu: no GPU can run it here (" + std::string(gpuUnavailable) +
                                  "); allowed here: auto, cpu");
    }
    return welchCpuFallback(std::string(gpuUnavailable));
  }
  return {WelchEngine::gpu, devices, {}};
}

WelchEngineChoice welchCpuFallback(std::string why) { return {WelchEngine::cpu, {}, std::move(why)}; }

}  // namespace siglab
