#include "all_backends.hpp"

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_fft_backend.hpp"

namespace siglab {

BackendList makeAllBackends(const CudaOptions& cudaOptions, const DeviceInfo* firstDevice) {
  BackendList backends;
  backends.push_back(std::make_unique<CpuSerialBackend>());
  backends.push_back(std::make_unique<CpuParallelBackend>());
  backends.push_back(std::make_unique<CpuRunningBackend>());
  backends.push_back(std::make_unique<CpuFftBackend>());
  BackendList gpus = firstDevice ? makeCudaBackends(cudaOptions, *firstDevice) : makeCudaBackends(cudaOptions);
  for (auto& gpu : gpus) backends.push_back(std::move(gpu));
  backends.push_back(makeCudaFftBackend(cudaOptions.devices));
  return backends;
}

}  // namespace siglab
