#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace siglab::cuda {

// A failed CUDA call: carries where it happened, the call and CUDA's name for the error.
class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* call, const char* file, int line)
      : std::runtime_error(std::string(cudaGetErrorName(code)) + " (" + cudaGetErrorString(code) + ") in " + call +
                           " at " + file + ":" + std::to_string(line)),
        code_(code) {}
  cudaError_t code() const { return code_; }

 private:
  cudaError_t code_;
};

// The device (or cuFFT, for a plan) could not allocate: the one typed error every engine maps to its
// "out of GPU memory" report. check() is the only place that tells it from other CUDA errors.
class OutOfDeviceMemory : public CudaError {
 public:
  OutOfDeviceMemory(const char* call, const char* file, int line)
      : CudaError(cudaErrorMemoryAllocation, call, file, line) {}
};

inline void check(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) {
    cudaGetLastError();  // clear a non-sticky error so the next call starts clean
    if (code == cudaErrorMemoryAllocation) throw OutOfDeviceMemory(call, file, line);
    throw CudaError(code, call, file, line);
  }
}

}  // namespace siglab::cuda

#define SIGLAB_CUDA_TRY(call) ::siglab::cuda::check((call), #call, __FILE__, __LINE__)
// After every kernel launch: a bad configuration shows up only here.
#define SIGLAB_CUDA_CHECK_LAUNCH() ::siglab::cuda::check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__)
