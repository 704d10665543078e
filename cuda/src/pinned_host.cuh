#pragma once
#include <cuda_runtime.h>

#include "cuda_check.hpp"

namespace siglab::cuda {

// Where a caller's buffer lives, as staging needs to know: the copy engines read pinned host memory
// and device memory (any device's) directly; pageable memory goes through pinned staging buffers;
// the host cannot read device memory.
enum class MemoryKind { Pageable, Pinned, Device };

inline MemoryKind memoryKindOf(const void* pointer) {
  if (pointer == nullptr) return MemoryKind::Pageable;  // an empty span: nothing to copy
  cudaPointerAttributes attributes{};
  SIGLAB_CUDA_TRY(cudaPointerGetAttributes(&attributes, pointer));
  switch (attributes.type) {
    case cudaMemoryTypeHost: return MemoryKind::Pinned;
    case cudaMemoryTypeDevice: return MemoryKind::Device;
    case cudaMemoryTypeManaged: return MemoryKind::Pinned;  // host-readable, and copied by the driver
    default: return MemoryKind::Pageable;
  }
}

// Whether the copy engines can read or write `pointer` directly (cudaMallocHost or registered).
inline bool isPinnedHost(const void* pointer) {
  cudaPointerAttributes attributes{};
  SIGLAB_CUDA_TRY(cudaPointerGetAttributes(&attributes, pointer));
  return attributes.type == cudaMemoryTypeHost;
}

}  // namespace siglab::cuda
