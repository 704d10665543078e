#include <cuda_runtime.h>

#include "cuda_check.hpp"
#include "device_scope.hpp"
#include "siglab/cuda_backends.hpp"

namespace siglab {
namespace {

std::string noDeviceReason(cudaError_t code, int runtimeVersion) {
  const std::string cuda = std::to_string(runtimeVersion / 1000) + "." + std::to_string(runtimeVersion % 1000 / 10);
  switch (code) {
    case cudaErrorNoDevice:
      return "no CUDA-capable GPU was found";
    case cudaErrorInsufficientDriver:
      return "no NVIDIA driver is loaded, or it is older than this build's CUDA " + cuda + " runtime";
    default:
      return std::string("CUDA could not start: ") + cudaGetErrorName(code) + " (" + cudaGetErrorString(code) + ")";
  }
}

}  // namespace

bool builtWithCuda() { return true; }

void* allocatePinnedHost(std::size_t bytes) {
  void* pointer = nullptr;
  if (bytes == 0 || cudaMallocHost(&pointer, bytes) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return pointer;
}

void freePinnedHost(void* pointer) {
  if (pointer) cudaFreeHost(pointer);
}

bool registerPinnedHost(void* pointer, std::size_t bytes) {
  if (pointer == nullptr || bytes == 0 || cudaHostRegister(pointer, bytes, cudaHostRegisterDefault) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return true;
}

void unregisterPinnedHost(void* pointer) {
  if (pointer && cudaHostUnregister(pointer) != cudaSuccess) cudaGetLastError();
}

std::vector<DeviceInfo> probeDevices() {
  int runtimeVersion = 0;
  int driverVersion = 0;
  cudaRuntimeGetVersion(&runtimeVersion);
  cudaDriverGetVersion(&driverVersion);
  int count = 0;
  const cudaError_t status = cudaGetDeviceCount(&count);
  if (status != cudaSuccess || count == 0) {
    cudaGetLastError();
    DeviceInfo none;
    none.reason = noDeviceReason(status == cudaSuccess ? cudaErrorNoDevice : status, runtimeVersion);
    none.driverVersion = driverVersion;
    none.runtimeVersion = runtimeVersion;
    return {none};
  }
  std::vector<DeviceInfo> devices;
  for (int d = 0; d < count; ++d) {
    DeviceInfo info;
    info.index = d;
    info.driverVersion = driverVersion;
    info.runtimeVersion = runtimeVersion;
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
      cudaGetLastError();
      info.reason = "cannot read the properties of device " + std::to_string(d);
      devices.push_back(info);
      continue;
    }
    info.available = true;
    info.name = prop.name;
    info.computeMajor = prop.major;
    info.computeMinor = prop.minor;
    info.totalMemoryBytes = prop.totalGlobalMem;
    info.multiprocessors = prop.multiProcessorCount;
    info.l2CacheBytes = static_cast<std::size_t>(prop.l2CacheSize);
    info.memoryBusWidthBits = prop.memoryBusWidth;
    cudaDeviceGetAttribute(&info.memoryClockKHz, cudaDevAttrMemoryClockRate, d);
    try {
      const cuda::DeviceScope scope(d);  // the free memory cudaMemGetInfo reads is the current device's
      std::size_t freeBytes = 0, totalBytes = 0;
      if (cudaMemGetInfo(&freeBytes, &totalBytes) == cudaSuccess) info.freeMemoryBytes = freeBytes;
    } catch (const cuda::CudaError&) {
    }
    cudaGetLastError();
    devices.push_back(info);
  }
  return devices;
}

}  // namespace siglab
