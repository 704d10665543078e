#include <algorithm>

#include "cuda_check.hpp"
#include "reverse_kernels.cuh"

// The reversal ladder of seed 002 ("global memory and the CUDA profiler"), each rung one change.
// The seed's kernels assume n is a multiple of the block; these take any n.
namespace siglab::cuda {
namespace {

constexpr int kOneBlockThreads = 1024;
constexpr int kSeedBlock = 256;  // the seed's numThreadsPerBlock
constexpr int kVectorBlock = 256;
constexpr int kChunksPerThread = 4;  // 16-byte chunks each thread has in flight

// Rung 1, one block: 1024 threads stride over the whole array. Correct and coalesced, but one SM
// of the GPU's many does all the work.
__global__ void reverseOneBlock(const int* __restrict__ d_in, int* __restrict__ d_out, std::int64_t n) {
  for (std::int64_t i = threadIdx.x; i < n; i += blockDim.x) d_out[n - 1 - i] = d_in[i];
}

// Rung 2, many blocks from global memory (the seed's reverseArray_multiblock): one element per
// thread over a grid that fills every SM. A warp stores 32 neighbouring words in descending order;
// on G80 that broke coalescing (the seed's gst_incoherent), since Fermi only the sectors count.
__global__ void reverseGlobal(const int* __restrict__ d_in, int* __restrict__ d_out, std::int64_t n) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) d_out[n - 1 - i] = d_in[i];
}

// Rung 3, through shared memory (the seed's reverseArray_multiblock_fast): a block loads its tile
// in order, reverses it in shared memory and stores it in ascending order to the mirrored tile.
// Output o = n - 256 (b + 1) + t holds in[256 b + 255 - t]; o < 0 only in the last, partial tile.
__global__ void reverseShared(const int* __restrict__ d_in, int* __restrict__ d_out, std::int64_t n) {
  __shared__ int s_tile[kSeedBlock];
  const std::int64_t base = static_cast<std::int64_t>(blockIdx.x) * kSeedBlock;
  const int t = threadIdx.x;
  if (base + t < n) s_tile[kSeedBlock - 1 - t] = d_in[base + t];
  __syncthreads();
  const std::int64_t o = n - base - kSeedBlock + t;
  if (o >= 0) d_out[o] = s_tile[t];
}

// Rung 4, 16-byte accesses, several per thread: each thread stores four int4 chunks out[4m..4m+3]
// (consecutive lanes, consecutive chunks), loading all four before storing any. The source
// in[n-4-4m .. n-1-4m] is one aligned int4 when n % 4 == 0 (kAlignedLoads), else four 4-byte
// loads that the L1 cache merges. The last n % 4 outputs come from in[0 .. n%4 - 1].
template <bool kAlignedLoads>
__global__ void reverseVector16(const int* __restrict__ d_in, int* __restrict__ d_out, std::int64_t n) {
  const std::int64_t chunks = n / 4;
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * (kVectorBlock * kChunksPerThread) + threadIdx.x;
  int4 v[kChunksPerThread];
#pragma unroll
  for (int j = 0; j < kChunksPerThread; ++j) {
    const std::int64_t m = first + j * kVectorBlock;
    if (m >= chunks) continue;
    const std::int64_t src = n - 4 - 4 * m;
    if constexpr (kAlignedLoads) {
      const int4 x = __ldcs(reinterpret_cast<const int4*>(d_in) + src / 4);
      v[j] = make_int4(x.w, x.z, x.y, x.x);
    } else {
      v[j] = make_int4(d_in[src + 3], d_in[src + 2], d_in[src + 1], d_in[src]);
    }
  }
#pragma unroll
  for (int j = 0; j < kChunksPerThread; ++j) {
    const std::int64_t m = first + j * kVectorBlock;
    if (m < chunks) __stcs(reinterpret_cast<int4*>(d_out) + m, v[j]);
  }
  const int tail = static_cast<int>(n % 4);
  if (blockIdx.x == 0 && threadIdx.x < tail) d_out[4 * chunks + threadIdx.x] = d_in[tail - 1 - threadIdx.x];
}

unsigned blocksFor(std::int64_t items, std::int64_t perBlock) {
  return static_cast<unsigned>(std::max<std::int64_t>(1, (items + perBlock - 1) / perBlock));
}

}  // namespace

const char* reverseKernelName(ReverseKernel kernel) {
  switch (kernel) {
    case ReverseKernel::OneBlock: return "gpu-one-block";
    case ReverseKernel::Global: return "gpu-global";
    case ReverseKernel::Shared: return "gpu-shared";
    case ReverseKernel::Vector16: return "gpu-vector16";
  }
  return "?";
}

const char* reverseKernelDescription(ReverseKernel kernel) {
  switch (kernel) {
    case ReverseKernel::OneBlock: return "one block of 1024 threads strides over the array: one SM works";
    case ReverseKernel::Global: return "many blocks, one element a thread, straight from global memory (seed)";
    case ReverseKernel::Shared: return "each block reverses its tile in shared memory, stores ascending (seed's fast)";
    case ReverseKernel::Vector16: return "16-byte loads and stores, four chunks in flight a thread";
  }
  return "?";
}

void launchReverse(ReverseKernel kernel, const std::int32_t* d_in, std::int32_t* d_out, std::int64_t n,
                   StreamView view) {
  if (n <= 0) return;
  const cudaStream_t stream = view.get();
  const int* in = reinterpret_cast<const int*>(d_in);
  int* out = reinterpret_cast<int*>(d_out);
  switch (kernel) {
    case ReverseKernel::OneBlock:
      reverseOneBlock<<<1, kOneBlockThreads, 0, stream>>>(in, out, n);
      break;
    case ReverseKernel::Global:
      reverseGlobal<<<blocksFor(n, kSeedBlock), kSeedBlock, 0, stream>>>(in, out, n);
      break;
    case ReverseKernel::Shared:
      reverseShared<<<blocksFor(n, kSeedBlock), kSeedBlock, 0, stream>>>(in, out, n);
      break;
    case ReverseKernel::Vector16: {
      const unsigned blocks = blocksFor(n / 4, kVectorBlock * kChunksPerThread);
      if (n % 4 == 0) reverseVector16<true><<<blocks, kVectorBlock, 0, stream>>>(in, out, n);
      else reverseVector16<false><<<blocks, kVectorBlock, 0, stream>>>(in, out, n);
      break;
    }
  }
  SIGLAB_CUDA_CHECK_LAUNCH();
}

}  // namespace siglab::cuda
