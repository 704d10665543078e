#include "mean_filter_kernels.cuh"

#include <stdexcept>

#include "cuda_check.hpp"

namespace siglab::cuda {
namespace {

__constant__ double c_taps[kMaxConstantTaps];

// acc + tap * x, each rounded on its own as the CPU reference does (no FMA).
__device__ __forceinline__ double addProduct(double acc, double tap, double x) {
  return __dadd_rn(acc, __dmul_rn(tap, x));
}

// One output, taps from `taps` (global or constant memory), samples straight from global memory.
__device__ __forceinline__ double correlateAt(const double* __restrict__ d_in, std::int64_t n, std::int64_t i,
                                              const double* taps, int window, BoundaryMode mode) {
  const std::int64_t r = window / 2;
  double acc = 0.0;
  if (i - r >= 0 && i + r < n) {  // interior: no boundary rule needed
    const double* x = d_in + (i - r);
    for (int j = 0; j < window; ++j) acc = addProduct(acc, taps[j], x[j]);
  } else {
    for (int j = 0; j < window; ++j) {
      const std::int64_t k = boundaryIndex(i - r + j, n, mode);
      if (k != kSkipSample) acc = addProduct(acc, taps[j], d_in[k]);
    }
  }
  return acc;
}

// MeanFilterGlobal: one thread per output; taps and samples both read from global memory.
// The seed's baseline: every tap is re-read by every thread (through L1), W sample loads each.
__global__ void meanFilterGlobal(const double* __restrict__ d_in, double* __restrict__ d_out, std::int64_t n,
                                 const double* __restrict__ d_taps, int window, BoundaryMode mode) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) d_out[i] = correlateAt(d_in, n, i, d_taps, window, mode);
}

// MeanFilterConstant: as Global, but the taps live in __constant__ memory; all threads of a warp
// read the same tap at once, which the constant cache broadcasts in one transaction.
__global__ void meanFilterConstant(const double* __restrict__ d_in, double* __restrict__ d_out, std::int64_t n,
                                   int window, BoundaryMode mode) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) d_out[i] = correlateAt(d_in, n, i, c_taps, window, mode);
}

// MeanFilterShared: constant taps plus a shared-memory tile of blockDim + 2r samples (the block's
// own and a halo each side), loaded once per block so each sample is read from global memory
// about once instead of W times. Boundary rules are applied while loading; a zero-mode sample
// outside the signal is stored as 0.0, whose product is +-0 and leaves the sum's bits unchanged
// (a round-to-nearest sum started at +0.0 is never -0.0), matching the reference's skip.
// Threads past the end help load and reach the barrier but write nothing.
__global__ void meanFilterShared(const double* __restrict__ d_in, double* __restrict__ d_out, std::int64_t n,
                                 int window, BoundaryMode mode) {
  extern __shared__ double s_tile[];
  const std::int64_t r = window / 2;
  const std::int64_t blockStart = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
  const int tileLength = static_cast<int>(blockDim.x + 2 * r);
  for (int t = threadIdx.x; t < tileLength; t += blockDim.x) {
    const std::int64_t k = boundaryIndex(blockStart - r + t, n, mode);
    s_tile[t] = k == kSkipSample ? 0.0 : d_in[k];
  }
  __syncthreads();
  const std::int64_t i = blockStart + threadIdx.x;
  if (i >= n) return;
  double acc = 0.0;
  for (int j = 0; j < window; ++j) acc = addProduct(acc, c_taps[j], s_tile[threadIdx.x + j]);
  d_out[i] = acc;
}

}  // namespace

void uploadConstantTaps(std::span<const double> taps) {
  if (taps.size() > kMaxConstantTaps) {
    throw std::invalid_argument("window of " + std::to_string(taps.size()) + " taps exceeds the " +
                                std::to_string(kMaxConstantTaps) + " that __constant__ memory holds");
  }
  SIGLAB_CUDA_TRY(cudaMemcpyToSymbol(c_taps, taps.data(), taps.size() * sizeof(double)));
}

std::size_t sharedTileBytes(int blockSize, int window) {
  return (static_cast<std::size_t>(blockSize) + static_cast<std::size_t>(window) - 1) * sizeof(double);
}

void launchFilter(KernelKind kind, const FilterLaunch& p) {
  if (p.n == 0) return;
  const auto blocks = static_cast<unsigned>((p.n + p.blockSize - 1) / p.blockSize);
  switch (kind) {
    case KernelKind::Global:
      meanFilterGlobal<<<blocks, p.blockSize, 0, p.stream>>>(p.d_in, p.d_out, p.n, p.d_taps, p.window, p.mode);
      break;
    case KernelKind::Constant:
      meanFilterConstant<<<blocks, p.blockSize, 0, p.stream>>>(p.d_in, p.d_out, p.n, p.window, p.mode);
      break;
    case KernelKind::Shared: {
      const std::size_t bytes = sharedTileBytes(p.blockSize, p.window);
      SIGLAB_CUDA_TRY(cudaFuncSetAttribute(meanFilterShared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(bytes)));
      meanFilterShared<<<blocks, p.blockSize, bytes, p.stream>>>(p.d_in, p.d_out, p.n, p.window, p.mode);
      break;
    }
  }
  SIGLAB_CUDA_CHECK_LAUNCH();
}

}  // namespace siglab::cuda
