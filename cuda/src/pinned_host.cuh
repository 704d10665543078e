#pragma once
#include <cuda_runtime.h>

#include "cuda_check.hpp"

namespace siglab::cuda {

// Whether the copy engines can read or write `pointer` directly (cudaMallocHost or registered).
inline bool isPinnedHost(const void* pointer) {
  cudaPointerAttributes attributes{};
  SIGLAB_CUDA_TRY(cudaPointerGetAttributes(&attributes, pointer));
  return attributes.type == cudaMemoryTypeHost;
}

}  // namespace siglab::cuda
