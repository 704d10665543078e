#include "siglab/welch_engine.hpp"

#include <stdexcept>

#include "siglab/auto_engine_rule.hpp"
#include "siglab/device_list.hpp"

namespace siglab {

std::string WelchEngineChoice::note() const {
  if (engine == WelchEngine::gpu) return devices.size() > 1 ? "gpu (cuFFT) on " + formatDevicePlacement(devices) : "gpu (cuFFT)";
  return reason.empty() ? "cpu (FFTW)" : "cpu (FFTW); " + reason;
}

WelchEngineChoice chooseWelchEngine(std::string_view requested, const std::vector<int>& devices,
                                    std::string_view gpuUnavailable, std::uint64_t samples) {
  if (requested != "auto" && requested != "cpu" && requested != "gpu") {
    throw std::invalid_argument("engine must be auto, cpu or gpu for a spectrum, not \"" + std::string(requested) + "\"");
  }
  if (requested == "cpu") return {};
  if (requested == "gpu") {
    if (gpuUnavailable.empty()) return {WelchEngine::gpu, devices, {}};
    throw std::invalid_argument("engine gpu: no GPU can run it here (" + std::string(gpuUnavailable) +
                                "); allowed here: auto, cpu");
  }
  const AutoPick pick = autoEngineOrder({AutoWork::Welch, samples, gpuUnavailable.empty() ? "gpu" : "",
                                         std::string(gpuUnavailable), false})
                            .front();
  if (pick.engine == "gpu") return {WelchEngine::gpu, devices, {}};
  return {WelchEngine::cpu, {}, pick.why};
}

WelchEngineChoice welchCpuFallback(std::string why) {
  return {WelchEngine::cpu, {}, "the GPU could not run it: " + std::move(why)};
}

}  // namespace siglab
