#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "siglab/boundary.hpp"
#include "stream.hpp"

namespace siglab::cuda {

// The seed's three kernel designs, made correct: bounds-checked on the last partial block,
// 64-bit indices, any window and boundary mode, float32 or float64, and no multiply-add
// contraction, so their output is bit-identical to cpu-serial (float64) or to the same loop in
// float32.
enum class KernelKind { Global, Constant, Shared };

// Taps that fit in __constant__ memory per element type (32 KiB of float64, 16 KiB of float32).
inline constexpr std::size_t kMaxConstantTaps = 4096;

template <class T>
struct FilterLaunch {
  const T* d_in = nullptr;
  T* d_out = nullptr;
  std::int64_t n = 0;
  int window = 1;
  BoundaryMode mode = BoundaryMode::Zero;
  int blockSize = 512;
  // The taps in device memory: read by Global, and by Constant and Shared when the window is over
  // kMaxConstantTaps (their fallback); otherwise those two read the constant bank.
  const T* d_taps = nullptr;
  bool tapsInConstantMemory = false;
};

// Copies taps into the constant bank of T read by the Constant and Shared kernels, queued on `stream`.
template <class T>
void uploadConstantTaps(std::span<const T> taps, StreamView stream);

// Dynamic shared memory the Shared kernel needs per block: the tile plus both halos.
std::size_t sharedTileBytes(int blockSize, int window, std::size_t elementBytes);

// Launches one kernel on `stream` and checks the launch. Throws CudaError.
template <class T>
void launchFilter(KernelKind kind, const FilterLaunch<T>& launch, StreamView stream);

}  // namespace siglab::cuda
