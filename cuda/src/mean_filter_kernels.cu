#include "mean_filter_kernels.cuh"

#include <stdexcept>
#include <type_traits>

#include "cuda_check.hpp"

namespace siglab::cuda {
namespace {

__constant__ double c_tapsDouble[kMaxConstantTaps];
__constant__ float c_tapsFloat[kMaxConstantTaps];

// Where a kernel reads its taps: the constant bank (broadcast to the warp through the constant
// cache) or device memory (through L1), the fallback for windows the bank cannot hold.
template <class T>
struct ConstantTaps {
  __device__ __forceinline__ T operator[](int j) const {
    if constexpr (std::is_same_v<T, double>) {
      return c_tapsDouble[j];
    } else {
      return c_tapsFloat[j];
    }
  }
};
template <class T>
struct GlobalTaps {
  const T* __restrict__ d_taps;
  __device__ __forceinline__ T operator[](int j) const { return d_taps[j]; }
};

// acc + tap * x, each rounded on its own as the CPU reference does (no FMA).
__device__ __forceinline__ double addProduct(double acc, double tap, double x) {
  return __dadd_rn(acc, __dmul_rn(tap, x));
}
__device__ __forceinline__ float addProduct(float acc, float tap, float x) { return __fadd_rn(acc, __fmul_rn(tap, x)); }

// One output, samples straight from global memory.
template <class T, class Taps>
__device__ __forceinline__ T correlateAt(const T* __restrict__ d_in, std::int64_t n, std::int64_t i, Taps taps,
                                         int window, BoundaryMode mode) {
  const std::int64_t r = window / 2;
  T acc = 0;
  if (i - r >= 0 && i + r < n) {  // interior: no boundary rule needed
    const T* x = d_in + (i - r);
    for (int j = 0; j < window; ++j) acc = addProduct(acc, taps[j], x[j]);
  } else {
    for (int j = 0; j < window; ++j) {
      const std::int64_t k = boundaryIndex(i - r + j, n, mode);
      if (k != kSkipSample) acc = addProduct(acc, taps[j], d_in[k]);
    }
  }
  return acc;
}

// MeanFilterGlobal / MeanFilterConstant: one thread per output, W sample loads each from global
// memory. With GlobalTaps (the seed's baseline) every tap is re-read by every thread through L1;
// with ConstantTaps all threads of a warp read the same tap at once, one broadcast transaction.
template <class T, class Taps>
__global__ void meanFilterDirect(const T* __restrict__ d_in, T* __restrict__ d_out, std::int64_t n, Taps taps,
                                 int window, BoundaryMode mode) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) d_out[i] = correlateAt(d_in, n, i, taps, window, mode);
}

// MeanFilterShared: taps plus a shared-memory tile of blockDim + 2r samples (the block's own and
// a halo each side), loaded once per block so each sample is read from global memory about once
// instead of W times. Boundary rules are applied while loading; a zero-mode sample outside the
// signal is stored as 0, whose product is +-0 and leaves the sum's bits unchanged (a
// round-to-nearest sum started at +0 is never -0), matching the reference's skip.
// Threads past the end help load and reach the barrier but write nothing.
template <class T, class Taps>
__global__ void meanFilterShared(const T* __restrict__ d_in, T* __restrict__ d_out, std::int64_t n, Taps taps,
                                 int window, BoundaryMode mode) {
  extern __shared__ __align__(16) unsigned char s_raw[];
  T* s_tile = reinterpret_cast<T*>(s_raw);
  const std::int64_t r = window / 2;
  const std::int64_t blockStart = static_cast<std::int64_t>(blockIdx.x) * blockDim.x;
  const int tileLength = static_cast<int>(blockDim.x + 2 * r);
  for (int t = threadIdx.x; t < tileLength; t += blockDim.x) {
    const std::int64_t k = boundaryIndex(blockStart - r + t, n, mode);
    s_tile[t] = k == kSkipSample ? T(0) : d_in[k];
  }
  __syncthreads();
  const std::int64_t i = blockStart + threadIdx.x;
  if (i >= n) return;
  T acc = 0;
  for (int j = 0; j < window; ++j) acc = addProduct(acc, taps[j], s_tile[threadIdx.x + j]);
  d_out[i] = acc;
}

template <class T, class Taps>
void launchWith(KernelKind kind, const FilterLaunch<T>& p, Taps taps, cudaStream_t stream) {
  const auto blocks = static_cast<unsigned>((p.n + p.blockSize - 1) / p.blockSize);
  if (kind == KernelKind::Shared) {
    const std::size_t bytes = sharedTileBytes(p.blockSize, p.window, sizeof(T));
    SIGLAB_CUDA_TRY(cudaFuncSetAttribute(meanFilterShared<T, Taps>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(bytes)));
    meanFilterShared<T, Taps><<<blocks, p.blockSize, bytes, stream>>>(p.d_in, p.d_out, p.n, taps, p.window, p.mode);
  } else {
    meanFilterDirect<T, Taps><<<blocks, p.blockSize, 0, stream>>>(p.d_in, p.d_out, p.n, taps, p.window, p.mode);
  }
  SIGLAB_CUDA_CHECK_LAUNCH();
}

}  // namespace

template <class T>
void uploadConstantTaps(std::span<const T> taps, StreamView stream) {
  if (taps.size() > kMaxConstantTaps) {
    throw std::invalid_argument("window of " + std::to_string(taps.size()) + " taps exceeds the " +
                                std::to_string(kMaxConstantTaps) + " that __constant__ memory holds");
  }
  if constexpr (std::is_same_v<T, double>) {
    SIGLAB_CUDA_TRY(cudaMemcpyToSymbolAsync(c_tapsDouble, taps.data(), taps.size() * sizeof(T), 0,
                                            cudaMemcpyHostToDevice, stream.get()));
  } else {
    SIGLAB_CUDA_TRY(cudaMemcpyToSymbolAsync(c_tapsFloat, taps.data(), taps.size() * sizeof(T), 0,
                                            cudaMemcpyHostToDevice, stream.get()));
  }
}

std::size_t sharedTileBytes(int blockSize, int window, std::size_t elementBytes) {
  return (static_cast<std::size_t>(blockSize) + static_cast<std::size_t>(window) - 1) * elementBytes;
}

template <class T>
void launchFilter(KernelKind kind, const FilterLaunch<T>& p, StreamView stream) {
  if (p.n == 0) return;
  if (p.tapsInConstantMemory && kind != KernelKind::Global) return launchWith(kind, p, ConstantTaps<T>{}, stream.get());
  launchWith(kind, p, GlobalTaps<T>{p.d_taps}, stream.get());
}

template void uploadConstantTaps<double>(std::span<const double>, StreamView);
template void uploadConstantTaps<float>(std::span<const float>, StreamView);
template void launchFilter<double>(KernelKind, const FilterLaunch<double>&, StreamView);
template void launchFilter<float>(KernelKind, const FilterLaunch<float>&, StreamView);

}  // namespace siglab::cuda
