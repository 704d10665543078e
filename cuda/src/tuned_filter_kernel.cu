#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "tuned_filter_kernel.cuh"

namespace siglab::cuda {
namespace {

constexpr int kBlock = 256;
constexpr int kVectorsPerThread = 4;  // 16-byte loads in flight per thread

template <class T>
struct Vector16;  // the 16-byte vector type of T
template <>
struct Vector16<double> {
  using type = double2;
  static constexpr int kElems = 2;
};
template <>
struct Vector16<float> {
  using type = float4;
  static constexpr int kElems = 4;
};

template <class T>
constexpr int kTile = kBlock * kVectorsPerThread * Vector16<T>::kElems;  // outputs per block

// Each product and sum rounded on its own, as cpu-serial does (no FMA).
__device__ __forceinline__ double addProduct(double acc, double tap, double x) {
  return __dadd_rn(acc, __dmul_rn(tap, x));
}
__device__ __forceinline__ float addProduct(float acc, float tap, float x) { return __fadd_rn(acc, __fmul_rn(tap, x)); }

template <class T>
__device__ __forceinline__ T sampleAt(const HaloedSpan<T>& s, std::int64_t p, int r) {
  if (p < 0) return s.d_halo[p + r];
  if (p < s.n) return s.d_body[p];
  if (p < s.n + r) return s.d_halo[r + (p - s.n)];
  return T(0);  // past anything an output reads
}

// MeanFilterTuned: each block filters a tile of kTile outputs. The tile and its halos are loaded
// into shared memory with 16-byte loads, kVectorsPerThread per thread in flight; each thread then
// computes 16-byte groups of consecutive outputs from samples held in registers and stores them
// with 16-byte stores. Only the last, partial tile and the halos take scalar, bounds-checked
// loads. kWindow > 0 fixes the window at compile time (taps in registers, loops unrolled);
// kWindow == 0 takes any window. Sums run in tap order from 0, so the bits equal cpu-serial's.
template <class T, int kWindow>
__global__ void __launch_bounds__(kBlock) meanFilterTuned(HaloedSpan<T> in, T* __restrict__ d_out,
                                                          const T* __restrict__ d_taps, int window) {
  using Vec = typename Vector16<T>::type;
  constexpr int kElems = Vector16<T>::kElems;
  constexpr int kTileElems = kTile<T>;
  extern __shared__ __align__(16) unsigned char s_raw[];
  T* s_tile = reinterpret_cast<T*>(s_raw);

  const int w = kWindow > 0 ? kWindow : window;
  const int r = w / 2;
  const int pad = (r + kElems - 1) / kElems * kElems;  // keeps the tile body 16-byte aligned
  const std::int64_t tileStart = static_cast<std::int64_t>(blockIdx.x) * kTileElems;
  const bool fullTile = tileStart + kTileElems <= in.n;

  if (fullTile) {
    const Vec* body = reinterpret_cast<const Vec*>(in.d_body + tileStart);
    Vec* s_body = reinterpret_cast<Vec*>(s_tile + pad);
    Vec loaded[kVectorsPerThread];
#pragma unroll
    for (int v = 0; v < kVectorsPerThread; ++v) loaded[v] = __ldg(body + v * kBlock + threadIdx.x);
#pragma unroll
    for (int v = 0; v < kVectorsPerThread; ++v) s_body[v * kBlock + threadIdx.x] = loaded[v];
  } else {
    for (int t = threadIdx.x; t < kTileElems; t += kBlock) s_tile[pad + t] = sampleAt(in, tileStart + t, r);
  }
  for (int t = threadIdx.x; t < r; t += kBlock) {
    s_tile[pad - r + t] = sampleAt(in, tileStart - r + t, r);
    s_tile[pad + kTileElems + t] = sampleAt(in, tileStart + kTileElems + t, r);
  }
  __syncthreads();

  T taps[kWindow > 0 ? kWindow : 1];
  if constexpr (kWindow > 0) {
#pragma unroll
    for (int j = 0; j < kWindow; ++j) taps[j] = __ldg(d_taps + j);
  }

#pragma unroll
  for (int v = 0; v < kVectorsPerThread; ++v) {
    const int first = (v * kBlock + threadIdx.x) * kElems;  // first output of this group, in the tile
    const T* x = s_tile + pad - r + first;
    T result[kElems];
    if constexpr (kWindow > 0) {
      T samples[kElems + kWindow - 1];
#pragma unroll
      for (int k = 0; k < kElems + kWindow - 1; ++k) samples[k] = x[k];
#pragma unroll
      for (int e = 0; e < kElems; ++e) {
        T acc = 0;
#pragma unroll
        for (int j = 0; j < kWindow; ++j) acc = addProduct(acc, taps[j], samples[e + j]);
        result[e] = acc;
      }
    } else {
#pragma unroll
      for (int e = 0; e < kElems; ++e) {
        T acc = 0;
        for (int j = 0; j < w; ++j) acc = addProduct(acc, __ldg(d_taps + j), x[e + j]);
        result[e] = acc;
      }
    }
    const std::int64_t i = tileStart + first;
    if (fullTile) {
      Vec packed;
      T* lanes = reinterpret_cast<T*>(&packed);
#pragma unroll
      for (int e = 0; e < kElems; ++e) lanes[e] = result[e];
      *reinterpret_cast<Vec*>(d_out + i) = packed;
    } else {
#pragma unroll
      for (int e = 0; e < kElems; ++e) {
        if (i + e < in.n) d_out[i + e] = result[e];
      }
    }
  }
}

// MeanFilterPrefixSum: uniform taps only. Each block loads its tile of kPrefixSumTile outputs plus
// both halos into shared memory (L = tile + 2r values), scans them in place (each thread a
// contiguous segment serially, then one thread adds up the segment totals, then each segment gets
// its offset), and writes out[t] = tap * (S[t + 2r] - S[t - 1]): two reads per output whatever W
// is. Prefix sums restart at every tile, so their magnitude and error stay bounded by L.
__global__ void __launch_bounds__(kBlock) meanFilterPrefixSum(HaloedSpan<double> in, double* __restrict__ d_out,
                                                              double tap, int window) {
  extern __shared__ __align__(16) unsigned char s_raw[];
  double* s_scan = reinterpret_cast<double*>(s_raw);
  __shared__ double s_segmentOffset[kBlock];
  const int r = window / 2;
  const int length = kPrefixSumTile + 2 * r;
  const std::int64_t tileStart = static_cast<std::int64_t>(blockIdx.x) * kPrefixSumTile;
  for (int t = threadIdx.x; t < length; t += kBlock) s_scan[t] = sampleAt(in, tileStart - r + t, r);
  __syncthreads();

  const int segment = (length + kBlock - 1) / kBlock;
  const int begin = min(length, static_cast<int>(threadIdx.x) * segment);
  const int end = min(length, begin + segment);
  double running = 0.0;
  for (int k = begin; k < end; ++k) {
    running += s_scan[k];
    s_scan[k] = running;
  }
  s_segmentOffset[threadIdx.x] = running;
  __syncthreads();
  if (threadIdx.x == 0) {
    double offset = 0.0;
    for (int t = 0; t < kBlock; ++t) {
      const double total = s_segmentOffset[t];
      s_segmentOffset[t] = offset;
      offset += total;
    }
  }
  __syncthreads();
  const double offset = s_segmentOffset[threadIdx.x];
  for (int k = begin; k < end; ++k) s_scan[k] += offset;
  __syncthreads();

  for (int t = threadIdx.x; t < kPrefixSumTile; t += kBlock) {
    const std::int64_t i = tileStart + t;
    if (i >= in.n) break;
    const double below = t > 0 ? s_scan[t - 1] : 0.0;
    d_out[i] = tap * (s_scan[t + 2 * r] - below);
  }
}

void launchPrefixSum(const TunedLaunch<double>& p, cudaStream_t stream) {
  const int r = p.window / 2;
  const std::size_t shared = static_cast<std::size_t>(kPrefixSumTile + 2 * r) * sizeof(double);
  if (shared > 48 * 1024) {
    SIGLAB_CUDA_TRY(cudaFuncSetAttribute(meanFilterPrefixSum, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shared)));
  }
  const auto blocks = static_cast<unsigned>((p.in.n + kPrefixSumTile - 1) / kPrefixSumTile);
  meanFilterPrefixSum<<<blocks, kBlock, shared, stream>>>(p.in, p.d_out, p.uniformTap, p.window);
  SIGLAB_CUDA_CHECK_LAUNCH();
}

template <class T, int kWindow>
void launchWith(const TunedLaunch<T>& p, cudaStream_t stream) {
  const int r = p.window / 2;
  const int pad = (r + Vector16<T>::kElems - 1) / Vector16<T>::kElems * Vector16<T>::kElems;
  const std::size_t shared = static_cast<std::size_t>(pad + kTile<T> + r) * sizeof(T);
  if (shared > 48 * 1024) {
    SIGLAB_CUDA_TRY(cudaFuncSetAttribute(meanFilterTuned<T, kWindow>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(shared)));
  }
  const auto blocks = static_cast<unsigned>((p.in.n + kTile<T> - 1) / kTile<T>);
  meanFilterTuned<T, kWindow><<<blocks, kBlock, shared, stream>>>(p.in, p.d_out, p.d_taps, p.window);
  SIGLAB_CUDA_CHECK_LAUNCH();
}

bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// *d_found = 1 where any of the n values is a NaN or an infinity.
template <class T>
__global__ void findNonFinite(const T* d_values, std::int64_t n, unsigned int* d_found) {
  for (std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    if (!isfinite(d_values[i])) {
      *d_found = 1;
      return;
    }
  }
}

}  // namespace

template <class T>
void launchTunedFilter(const TunedLaunch<T>& p, StreamView view) {
  const cudaStream_t stream = view.get();
  if (p.window < 1 || p.window % 2 == 0 || p.window > kMaxTunedWindow) {
    throw std::invalid_argument("the tuned kernel takes odd windows up to " + std::to_string(kMaxTunedWindow) +
                                ", not " + std::to_string(p.window));
  }
  if (!aligned16(p.in.d_body) || !aligned16(p.d_out)) {
    throw std::invalid_argument("the tuned kernel needs 16-byte aligned input and output");
  }
  if (p.in.n == 0) return;
  if constexpr (std::is_same_v<T, double>) {
    if (p.prefixSum) return launchPrefixSum(p, stream);
  }
  switch (p.window) {  // the common small windows, unrolled; any other through the general loop
    case 1: return launchWith<T, 1>(p, stream);
    case 3: return launchWith<T, 3>(p, stream);
    case 5: return launchWith<T, 5>(p, stream);
    case 7: return launchWith<T, 7>(p, stream);
    case 9: return launchWith<T, 9>(p, stream);
    default: return launchWith<T, 0>(p, stream);
  }
}

double prefixSumErrorBound(int window, double maxAbs) {
  const double u = 0x1p-53;
  const double length = kPrefixSumTile + window - 1;
  return 1.01 * (2.0 * length * length * u + 3.0 * window * u) * maxAbs / window;
}

template <class T>
bool allFiniteOnDevice(const T* d_values, std::size_t count, StreamView stream) {
  if (count == 0) return true;
  DeviceBuffer<unsigned int> d_found(1, stream);
  unsigned int found = 0;
  SIGLAB_CUDA_TRY(cudaMemsetAsync(d_found.data(), 0, sizeof found, stream.get()));
  const auto blocks = static_cast<unsigned>(std::min<std::size_t>((count + kBlock - 1) / kBlock, 1024));
  findNonFinite<<<blocks, kBlock, 0, stream.get()>>>(d_values, static_cast<std::int64_t>(count), d_found.data());
  SIGLAB_CUDA_CHECK_LAUNCH();
  d_found.copyTo(&found, 1);
  stream.synchronize();
  return found == 0;
}
template bool allFiniteOnDevice<double>(const double*, std::size_t, StreamView);
template bool allFiniteOnDevice<float>(const float*, std::size_t, StreamView);

template void launchTunedFilter<double>(const TunedLaunch<double>&, StreamView);
template void launchTunedFilter<float>(const TunedLaunch<float>&, StreamView);

template <class T>
int tunedTileOutputs(bool prefixSum) {
  return prefixSum ? kPrefixSumTile : kTile<T>;
}
template int tunedTileOutputs<double>(bool);
template int tunedTileOutputs<float>(bool);

}  // namespace siglab::cuda
