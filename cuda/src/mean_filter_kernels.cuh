#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "siglab/boundary.hpp"

namespace siglab::cuda {

// The seed's three kernel designs, made correct: bounds-checked on the last partial block,
// 64-bit indices, any window and boundary mode, and no multiply-add contraction, so their output
// is bit-identical to cpu-serial.
enum class KernelKind { Global, Constant, Shared };

// Taps that fit in __constant__ memory (32 KiB of the 64 KiB bank).
inline constexpr std::size_t kMaxConstantTaps = 4096;

struct FilterLaunch {
  const double* d_in = nullptr;
  double* d_out = nullptr;
  std::int64_t n = 0;
  int window = 1;
  BoundaryMode mode = BoundaryMode::Zero;
  int blockSize = 512;
  const double* d_taps = nullptr;  // Global only: the taps in device memory
  cudaStream_t stream = nullptr;
};

// Copies taps into the constant bank read by the Constant and Shared kernels.
void uploadConstantTaps(std::span<const double> taps);

// Dynamic shared memory the Shared kernel needs per block: the tile plus both halos.
std::size_t sharedTileBytes(int blockSize, int window);

// Launches one kernel and checks the launch. Throws CudaError.
void launchFilter(KernelKind kind, const FilterLaunch& launch);

}  // namespace siglab::cuda
