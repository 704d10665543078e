#include <algorithm>
#include <stdexcept>

#include "cuda_check.hpp"
#include "reduction_kernels.cuh"

// The classic parallel-reduction ladder (as in "Professional CUDA C Programming", ch. 3), with two
// changes the originals need: partial sums live in a shared-memory array of the accumulator type
// (int64 for int32 input, so sums past 2^31 stay exact) instead of being written over the input,
// and the last warp is reduced with __shfl_down_sync, not the volatile-only pattern, which races
// on Volta and later where a warp's threads no longer run in lockstep.
namespace siglab::cuda {
namespace {

constexpr int kLadderBlock = 512;   // rungs 1-6, the seed's block size
constexpr int kShuffleBlock = 256;  // rung 7
constexpr int kFinalBlock = 1024;   // the second pass

template <ReduceOp kOp, class Acc, class In>
__device__ __forceinline__ Acc load(In x) {
  const Acc a = static_cast<Acc>(x);
  if constexpr (kOp == ReduceOp::SumOfSquares) return a * a;
  return a;
}

template <class Acc>
__device__ __forceinline__ Acc warpSum(Acc v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Shared memory as the accumulator type; one raw array serves every instantiation.
template <class Acc>
__device__ __forceinline__ Acc* sharedAccumulators() {
  extern __shared__ __align__(16) unsigned char s_raw[];
  return reinterpret_cast<Acc*>(s_raw);
}

// Rung 1, neighbored pairs: stride doubles; thread tid works when tid % (2*stride) == 0, so
// active threads are scattered over every warp and most warps diverge.
template <ReduceOp kOp, class In, class Acc>
__global__ void reduceNeighbored(const In* __restrict__ d_in, std::int64_t n, Acc* __restrict__ d_partial) {
  Acc* s = sharedAccumulators<Acc>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? load<kOp, Acc>(d_in[i]) : Acc(0);
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (tid % (2 * stride) == 0) s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0) d_partial[blockIdx.x] = s[0];
}

// Rung 2, neighbored with less divergence: thread tid adds at 2*stride*tid, so the working
// threads are the first ones and whole warps go idle together.
template <ReduceOp kOp, class In, class Acc>
__global__ void reduceNeighboredLess(const In* __restrict__ d_in, std::int64_t n, Acc* __restrict__ d_partial) {
  Acc* s = sharedAccumulators<Acc>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? load<kOp, Acc>(d_in[i]) : Acc(0);
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    const unsigned index = 2 * stride * tid;
    if (index < blockDim.x) s[index] += s[index + stride];
    __syncthreads();
  }
  if (tid == 0) d_partial[blockIdx.x] = s[0];
}

// The interleaved tree every later rung shares: stride halves from blockDim/2 down to `last`.
template <class Acc>
__device__ __forceinline__ void interleavedTree(Acc* s, unsigned tid, unsigned last) {
  for (unsigned stride = blockDim.x / 2; stride > last; stride >>= 1) {
    if (tid < stride) s[tid] += s[tid + stride];
    __syncthreads();
  }
}

// The last 64 partial sums by one warp with shuffles; returns the block's sum in lane 0.
template <class Acc>
__device__ __forceinline__ Acc lastWarp(const Acc* s, unsigned tid) {
  return warpSum(s[tid] + s[tid + 32]);
}

// Rung 3, interleaved pairs: stride halves from blockDim/2; neighbouring threads read
// neighbouring words (no bank conflicts) and working threads stay packed.
template <ReduceOp kOp, class In, class Acc>
__global__ void reduceInterleaved(const In* __restrict__ d_in, std::int64_t n, Acc* __restrict__ d_partial) {
  Acc* s = sharedAccumulators<Acc>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + tid;
  s[tid] = i < n ? load<kOp, Acc>(d_in[i]) : Acc(0);
  __syncthreads();
  interleavedTree(s, tid, 0);
  if (tid == 0) d_partial[blockIdx.x] = s[0];
}

// Rung 4, unroll-2: each block first adds two blocks' worth of input, halving the blocks.
template <ReduceOp kOp, class In, class Acc>
__global__ void reduceUnroll2(const In* __restrict__ d_in, std::int64_t n, Acc* __restrict__ d_partial) {
  Acc* s = sharedAccumulators<Acc>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x * 2 + tid;
  Acc v = i < n ? load<kOp, Acc>(d_in[i]) : Acc(0);
  if (i + blockDim.x < n) v += load<kOp, Acc>(d_in[i + blockDim.x]);
  s[tid] = v;
  __syncthreads();
  interleavedTree(s, tid, 0);
  if (tid == 0) d_partial[blockIdx.x] = s[0];
}

// Eight loads a thread, independent, so they are in flight together; bounds-checked only in the
// last block.
template <ReduceOp kOp, class In, class Acc>
__device__ __forceinline__ Acc loadEight(const In* __restrict__ d_in, std::int64_t n, std::int64_t i, unsigned step) {
  Acc v = 0;
  if (i + 7 * static_cast<std::int64_t>(step) < n) {
    Acc x[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) x[k] = load<kOp, Acc>(d_in[i + k * step]);
#pragma unroll
    for (int k = 0; k < 8; ++k) v += x[k];
  } else {
    for (int k = 0; k < 8; ++k) {
      if (i + k * step < n) v += load<kOp, Acc>(d_in[i + k * step]);
    }
  }
  return v;
}

// Rung 5, unroll-8 with the last warp unrolled: eight blocks of input per block, the tree down to
// 64 values, then one warp finishes with shuffles (no barrier needed inside a warp's shuffle).
template <ReduceOp kOp, class In, class Acc>
__global__ void reduceUnroll8(const In* __restrict__ d_in, std::int64_t n, Acc* __restrict__ d_partial) {
  Acc* s = sharedAccumulators<Acc>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x * 8 + tid;
  s[tid] = loadEight<kOp, In, Acc>(d_in, n, i, blockDim.x);
  __syncthreads();
  interleavedTree(s, tid, 32);
  if (tid < 32) {
    const Acc v = lastWarp(s, tid);
    if (tid == 0) d_partial[blockIdx.x] = v;
  }
}

// Rung 6, complete unroll: as rung 5 with the block size a compile-time constant, so every
// stride test and loop disappears from the tree.
template <ReduceOp kOp, class In, class Acc, int kBlock>
__global__ void __launch_bounds__(kBlock) reduceCompleteUnroll(const In* __restrict__ d_in, std::int64_t n,
                                                               Acc* __restrict__ d_partial) {
  Acc* s = sharedAccumulators<Acc>();
  const unsigned tid = threadIdx.x;
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * kBlock * 8 + tid;
  s[tid] = loadEight<kOp, In, Acc>(d_in, n, i, kBlock);
  __syncthreads();
  if constexpr (kBlock >= 1024) {
    if (tid < 512) s[tid] += s[tid + 512];
    __syncthreads();
  }
  if constexpr (kBlock >= 512) {
    if (tid < 256) s[tid] += s[tid + 256];
    __syncthreads();
  }
  if constexpr (kBlock >= 256) {
    if (tid < 128) s[tid] += s[tid + 128];
    __syncthreads();
  }
  if constexpr (kBlock >= 128) {
    if (tid < 64) s[tid] += s[tid + 64];
    __syncthreads();
  }
  if (tid < 32) {
    const Acc v = lastWarp(s, tid);
    if (tid == 0) d_partial[blockIdx.x] = v;
  }
}

template <class In>
struct Vector16;
template <>
struct Vector16<std::int32_t> {
  using type = int4;
  static constexpr int kElems = 4;
};
template <>
struct Vector16<double> {
  using type = double2;
  static constexpr int kElems = 2;
};

template <ReduceOp kOp, class Acc>
__device__ __forceinline__ Acc sumLanes(int4 v) {
  return load<kOp, Acc>(v.x) + load<kOp, Acc>(v.y) + load<kOp, Acc>(v.z) + load<kOp, Acc>(v.w);
}
template <ReduceOp kOp, class Acc>
__device__ __forceinline__ Acc sumLanes(double2 v) {
  return load<kOp, Acc>(v.x) + load<kOp, Acc>(v.y);
}

// Rung 7, warp shuffles over a grid-stride loop: a grid sized to fill the GPU once, each thread
// summing 16-byte vectors (four in flight per iteration) in a register, warps reducing with
// shuffles and one shared word per warp; no shared-memory tree and no idle threads.
template <ReduceOp kOp, class In, class Acc>
__global__ void __launch_bounds__(kShuffleBlock) reduceWarpShuffle(const In* __restrict__ d_in, std::int64_t n,
                                                                   Acc* __restrict__ d_partial) {
  using Vec = typename Vector16<In>::type;
  constexpr int kElems = Vector16<In>::kElems;
  const Vec* vectors = reinterpret_cast<const Vec*>(d_in);
  const std::int64_t vectorCount = n / kElems;
  const std::int64_t stride = static_cast<std::int64_t>(gridDim.x) * kShuffleBlock;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * kShuffleBlock + threadIdx.x;
  Acc acc = 0;
  std::int64_t v = first;
  for (; v + 3 * stride < vectorCount; v += 4 * stride) {
    const Vec a = __ldg(vectors + v), b = __ldg(vectors + v + stride), c = __ldg(vectors + v + 2 * stride),
              d = __ldg(vectors + v + 3 * stride);
    acc += (sumLanes<kOp, Acc>(a) + sumLanes<kOp, Acc>(b)) + (sumLanes<kOp, Acc>(c) + sumLanes<kOp, Acc>(d));
  }
  for (; v < vectorCount; v += stride) acc += sumLanes<kOp, Acc>(__ldg(vectors + v));
  const std::int64_t tail = vectorCount * kElems + first;  // the n % kElems values past the last vector
  if (tail < n) acc += load<kOp, Acc>(d_in[tail]);

  __shared__ Acc s_warps[kShuffleBlock / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  acc = warpSum(acc);
  if (lane == 0) s_warps[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = warpSum(lane < kShuffleBlock / 32 ? s_warps[lane] : Acc(0));
    if (lane == 0) d_partial[blockIdx.x] = acc;
  }
}

// The second pass: one block adds the partial sums.
template <class Acc>
__global__ void __launch_bounds__(kFinalBlock) sumPartials(const Acc* __restrict__ d_partial, std::int64_t count,
                                                           Acc* __restrict__ d_result) {
  Acc acc = 0;
  for (std::int64_t i = threadIdx.x; i < count; i += kFinalBlock) acc += d_partial[i];
  __shared__ Acc s_warps[kFinalBlock / 32];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  acc = warpSum(acc);
  if (lane == 0) s_warps[warp] = acc;
  __syncthreads();
  if (warp == 0) {
    acc = warpSum(s_warps[lane]);
    if (lane == 0) *d_result = acc;
  }
}

// Enough blocks to fill every multiprocessor once, fewer for small inputs (counted in 16-byte
// vectors of the widest element, so one grid size serves int32 and float64).
int shuffleGrid(std::int64_t n) {
  static const int multiprocessors = [] {
    int device = 0, count = 0;
    SIGLAB_CUDA_TRY(cudaGetDevice(&device));
    SIGLAB_CUDA_TRY(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  }();
  const std::int64_t needed = (n / 2 + kShuffleBlock - 1) / kShuffleBlock;
  const std::int64_t full = static_cast<std::int64_t>(multiprocessors) * (2048 / kShuffleBlock);
  return static_cast<int>(std::max<std::int64_t>(1, std::min(needed, full)));
}

template <ReduceOp kOp, class In, class Acc>
void launchTyped(ReduceKernel kernel, const In* d_in, std::int64_t n, Acc* d_partial, Acc* d_result,
                 cudaStream_t stream) {
  const std::int64_t partials = reducePartialCount(kernel, n);
  const auto blocks = static_cast<unsigned>(partials);
  const std::size_t shared = kLadderBlock * sizeof(Acc);
  switch (kernel) {
    case ReduceKernel::Neighbored:
      reduceNeighbored<kOp, In, Acc><<<blocks, kLadderBlock, shared, stream>>>(d_in, n, d_partial);
      break;
    case ReduceKernel::NeighboredLessDivergence:
      reduceNeighboredLess<kOp, In, Acc><<<blocks, kLadderBlock, shared, stream>>>(d_in, n, d_partial);
      break;
    case ReduceKernel::Interleaved:
      reduceInterleaved<kOp, In, Acc><<<blocks, kLadderBlock, shared, stream>>>(d_in, n, d_partial);
      break;
    case ReduceKernel::Unroll2:
      reduceUnroll2<kOp, In, Acc><<<blocks, kLadderBlock, shared, stream>>>(d_in, n, d_partial);
      break;
    case ReduceKernel::Unroll8LastWarp:
      reduceUnroll8<kOp, In, Acc><<<blocks, kLadderBlock, shared, stream>>>(d_in, n, d_partial);
      break;
    case ReduceKernel::CompleteUnroll:
      reduceCompleteUnroll<kOp, In, Acc, kLadderBlock><<<blocks, kLadderBlock, shared, stream>>>(d_in, n, d_partial);
      break;
    case ReduceKernel::WarpShuffle16B:
      reduceWarpShuffle<kOp, In, Acc><<<blocks, kShuffleBlock, 0, stream>>>(d_in, n, d_partial);
      break;
  }
  SIGLAB_CUDA_CHECK_LAUNCH();
  sumPartials<Acc><<<1, kFinalBlock, 0, stream>>>(d_partial, partials, d_result);
  SIGLAB_CUDA_CHECK_LAUNCH();
}

template <class In, class Acc>
void launchOp(ReduceKernel kernel, ReduceOp op, const In* d_in, std::int64_t n, Acc* d_partial, Acc* d_result,
              cudaStream_t stream) {
  if (reinterpret_cast<std::uintptr_t>(d_in) % 16 != 0) throw std::invalid_argument("reduction input not 16-byte aligned");
  if (op == ReduceOp::Sum) return launchTyped<ReduceOp::Sum>(kernel, d_in, n, d_partial, d_result, stream);
  launchTyped<ReduceOp::SumOfSquares>(kernel, d_in, n, d_partial, d_result, stream);
}

}  // namespace

const char* reduceKernelName(ReduceKernel kernel) {
  switch (kernel) {
    case ReduceKernel::Neighbored: return "neighbored";
    case ReduceKernel::NeighboredLessDivergence: return "neighbored-less-div";
    case ReduceKernel::Interleaved: return "interleaved";
    case ReduceKernel::Unroll2: return "unroll-2";
    case ReduceKernel::Unroll8LastWarp: return "unroll-8-last-warp";
    case ReduceKernel::CompleteUnroll: return "complete-unroll";
    case ReduceKernel::WarpShuffle16B: return "warp-shuffle-16B";
  }
  return "?";
}

const char* reduceKernelDescription(ReduceKernel kernel) {
  switch (kernel) {
    case ReduceKernel::Neighbored: return "neighbored pairs, tid % (2*stride) == 0";
    case ReduceKernel::NeighboredLessDivergence: return "neighbored pairs at index 2*stride*tid: idle warps";
    case ReduceKernel::Interleaved: return "interleaved pairs, stride halving: packed threads";
    case ReduceKernel::Unroll2: return "two blocks of input per block";
    case ReduceKernel::Unroll8LastWarp: return "eight blocks per block, last warp by shuffles";
    case ReduceKernel::CompleteUnroll: return "block size a template constant: tree fully unrolled";
    case ReduceKernel::WarpShuffle16B: return "grid-stride, 16-byte loads, warp shuffles";
  }
  return "?";
}

std::int64_t reducePartialCount(ReduceKernel kernel, std::int64_t n) {
  const std::int64_t m = std::max<std::int64_t>(n, 1);
  switch (kernel) {
    case ReduceKernel::Unroll2: return (m + 2 * kLadderBlock - 1) / (2 * kLadderBlock);
    case ReduceKernel::Unroll8LastWarp:
    case ReduceKernel::CompleteUnroll: return (m + 8 * kLadderBlock - 1) / (8 * kLadderBlock);
    case ReduceKernel::WarpShuffle16B: return shuffleGrid(m);
    default: return (m + kLadderBlock - 1) / kLadderBlock;
  }
}

void launchReduce(ReduceKernel kernel, ReduceOp op, const std::int32_t* d_in, std::int64_t n, long long* d_partial,
                  long long* d_result, StreamView stream) {
  launchOp(kernel, op, d_in, n, d_partial, d_result, stream.get());
}

void launchReduce(ReduceKernel kernel, ReduceOp op, const double* d_in, std::int64_t n, double* d_partial,
                  double* d_result, StreamView stream) {
  launchOp(kernel, op, d_in, n, d_partial, d_result, stream.get());
}

}  // namespace siglab::cuda
