#include "all_backends.hpp"

#include "siglab/cpu_fft.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_fft_backend.hpp"

namespace siglab {

BackendList makeAllBackends(const CudaOptions& cudaOptions) {
  BackendList backends;
  backends.push_back(std::make_unique<CpuSerialBackend>());
  backends.push_back(std::make_unique<CpuParallelBackend>());
  backends.push_back(std::make_unique<CpuRunningBackend>());
  backends.push_back(std::make_unique<CpuFftBackend>());
  for (auto& gpu : makeCudaBackends(cudaOptions)) backends.push_back(std::move(gpu));
  backends.push_back(makeCudaFftBackend());
  return backends;
}

}  // namespace siglab
