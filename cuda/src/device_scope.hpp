#pragma once
// The device a piece of GPU work runs on, as a scope: set on entry, the caller's restored on exit,
// so an engine's device is its own setting and never leaks into the next engine's work.
#include <cuda_runtime.h>

#include "cuda_check.hpp"

namespace siglab::cuda {

class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) {
      cudaGetLastError();
      previous_ = -1;
    }
    SIGLAB_CUDA_TRY(cudaSetDevice(device));
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  ~DeviceScope() {
    if (previous_ >= 0 && cudaSetDevice(previous_) != cudaSuccess) cudaGetLastError();  // destructors never throw
  }

 private:
  int previous_ = -1;
};

}  // namespace siglab::cuda
