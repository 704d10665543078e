#pragma once
// The device a piece of GPU work runs on, as a scope: set on entry, the caller's restored on exit,
// so an engine's device is its own setting and never leaks into the next engine's work. The only
// place SigLab sets the current device (the probe aside).
#include <cuda_runtime.h>

#include <new>

#include "cuda_check.hpp"

namespace siglab::cuda {

class DeviceScope {
 public:
  explicit DeviceScope(int device) {
    if (cudaGetDevice(&previous_) != cudaSuccess) {
      cudaGetLastError();
      previous_ = -1;
    }
    if (device != previous_) SIGLAB_CUDA_TRY(cudaSetDevice(device));
  }
  // For destructors and clean-up: a failure to switch is cleared, never thrown.
  DeviceScope(int device, std::nothrow_t) {
    if (cudaGetDevice(&previous_) != cudaSuccess || (device != previous_ && cudaSetDevice(device) != cudaSuccess)) {
      cudaGetLastError();
    }
  }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;
  ~DeviceScope() {
    int current = -1;
    if (previous_ < 0 || (cudaGetDevice(&current) == cudaSuccess && current == previous_)) return;
    if (cudaSetDevice(previous_) != cudaSuccess) cudaGetLastError();  // destructors never throw
  }

 private:
  int previous_ = -1;
};

}  // namespace siglab::cuda
