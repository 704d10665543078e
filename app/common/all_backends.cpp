#include "all_backends.hpp"

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_fft_backend.hpp"
#include "siglab/cuda_kind_backends.hpp"

namespace siglab {

BackendList makeAllBackends(const CudaOptions& cudaOptions, const DeviceInfo* firstDevice) {
  BackendList backends;
  backends.push_back(std::make_unique<CpuSerialBackend>());
  backends.push_back(std::make_unique<CpuParallelBackend>());
  backends.push_back(std::make_unique<CpuRunningBackend>());
  backends.push_back(std::make_unique<CpuFftBackend>());
  const DeviceInfo device = firstDevice ? *firstDevice : probeDevices().front();
  BackendList gpus = makeCudaBackends(cudaOptions, device);
  for (auto& gpu : gpus) backends.push_back(std::move(gpu));
  backends.push_back(makeCudaFftBackend(cudaOptions.devices));
  backends.push_back(makeGpuMedianBackend(cudaOptions, device));
  backends.push_back(makeGpuSosScanBackend(cudaOptions, device));
  return backends;
}

std::pmr::memory_resource* hostMemoryFor(std::span<FilterBackend* const> engines, const FilterSpec& spec,
                                         SampleType type) {
  for (FilterBackend* engine : engines) {
    // float32 runs narrow into buffers of their own: pinning the float64 samples would not help.
    if (engine->usesGpu() && type == SampleType::f64 && engine->whyNot(spec, type).empty()) return pinnedHostMemory();
  }
  return nullptr;
}

}  // namespace siglab
