#include "spectrum_engine.hpp"

#include <stdexcept>
#include <utility>

#include "siglab/cuda_spectrum.hpp"
#include "siglab/device_list.hpp"

namespace siglab {

Spectrum welchOnEngine(std::span<const double> samples, const WelchOptions& options, const std::string& engine,
                       const std::vector<int>& devices, std::string& note) {
  if (engine == "gpu" && !gpuSpectrumUnavailableReason().empty()) {
    throw std::invalid_argument("engine gpu: no GPU can run it here (" + gpuSpectrumUnavailableReason() +
                                "); allowed here: auto, cpu");
  }
  if (engine != "cpu") {
    GpuSpectrumRun gpu = welchGpu(samples, options, 0, devices);
    if (gpu.ok) {
      note = devices.size() > 1 ? "gpu (cuFFT) on " + formatDevicePlacement(devices) : "gpu (cuFFT)";
      return std::move(gpu.spectrum);
    }
    note = "cpu (FFTW); the GPU could not run it: " + gpu.message;
  } else {
    note = "cpu (FFTW)";
  }
  return welch(samples, options);
}

}  // namespace siglab
