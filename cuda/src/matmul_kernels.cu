#include <cstdint>

#include "cuda_check.hpp"
#include "matmul_kernels.cuh"

// The matrix-multiply ladder: seed 001's two kernels (one thread per output, 16x16 shared tiles),
// then the well-known path (as in Simon Boehm's "How to optimize a CUDA matmul kernel"), one
// change a rung. The seed assumed sizes that are multiples of the tile; these take any m, n, k:
// loads outside A or B read zero and outputs outside C are not written.
namespace siglab::cuda {
namespace {

using Index = std::int64_t;

__device__ __forceinline__ float loadOrZero(const float* __restrict__ x, int row, int col, int rows, int cols) {
  return row < rows && col < cols ? x[static_cast<Index>(row) * cols + col] : 0.0f;
}

// Rung 1, one thread per output (the seed's matrix_kernel_0): every product reads A and B from
// global memory; a warp reads one element of A (broadcast) and 32 neighbouring elements of B.
__global__ void matmulNaive(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                            int n, int k) {
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m || col >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum = __fmaf_rn(a[static_cast<Index>(row) * k + p], b[static_cast<Index>(p) * n + col], sum);
  c[static_cast<Index>(row) * n + col] = sum;
}

// Rung 2, 16x16 shared-memory tiles (the seed's matrix_kernel_1): a block stages a 16x16 tile of
// A and of B, then each thread reads 16 products' operands from shared memory: 16x fewer global loads.
constexpr int kSeedTile = 16;
__global__ void matmulTiled16(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m,
                              int n, int k) {
  __shared__ float s_a[kSeedTile][kSeedTile];
  __shared__ float s_b[kSeedTile][kSeedTile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * kSeedTile + ty, col = blockIdx.x * kSeedTile + tx;
  float sum = 0.0f;
  for (int p0 = 0; p0 < k; p0 += kSeedTile) {
    s_a[ty][tx] = loadOrZero(a, row, p0 + tx, m, k);
    s_b[ty][tx] = loadOrZero(b, p0 + ty, col, k, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kSeedTile; ++p) sum = __fmaf_rn(s_a[ty][p], s_b[p][tx], sum);
    __syncthreads();
  }
  if (row < m && col < n) c[static_cast<Index>(row) * n + col] = sum;
}

// Rung 3, more outputs per thread: 64x64 tiles of C, 8 deep in k, 512 threads of 8 outputs each
// (a column of 8). One value of B read from shared memory now serves 8 multiply-adds.
constexpr int k1dTile = 64, k1dDepth = 8, k1dRows = 8, k1dThreads = 512;
__global__ void __launch_bounds__(k1dThreads)
    matmulBlockTile1D(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                      int k) {
  __shared__ float s_a[k1dTile * k1dDepth];
  __shared__ float s_b[k1dDepth * k1dTile];
  const int row0 = blockIdx.y * k1dTile, col0 = blockIdx.x * k1dTile;
  const int tid = threadIdx.x;
  const int threadCol = tid % k1dTile, threadRow = tid / k1dTile;
  const int aRow = tid / k1dDepth, aCol = tid % k1dDepth;
  const int bRow = tid / k1dTile, bCol = tid % k1dTile;
  float acc[k1dRows] = {};
  for (int p0 = 0; p0 < k; p0 += k1dDepth) {
    s_a[aRow * k1dDepth + aCol] = loadOrZero(a, row0 + aRow, p0 + aCol, m, k);
    s_b[bRow * k1dTile + bCol] = loadOrZero(b, p0 + bRow, col0 + bCol, k, n);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < k1dDepth; ++p) {
      const float bv = s_b[p * k1dTile + threadCol];
#pragma unroll
      for (int i = 0; i < k1dRows; ++i) acc[i] = __fmaf_rn(s_a[(threadRow * k1dRows + i) * k1dDepth + p], bv, acc[i]);
    }
    __syncthreads();
  }
  const int col = col0 + threadCol;
#pragma unroll
  for (int i = 0; i < k1dRows; ++i) {
    const int row = row0 + threadRow * k1dRows + i;
    if (row < m && col < n) c[static_cast<Index>(row) * n + col] = acc[i];
  }
}

// Rung 4, register blocking: 128x128 tiles of C, 256 threads of 8x8 outputs. Per step in k a thread
// loads 8 values of A and 8 of B into registers and does 64 multiply-adds with them.
constexpr int k2dTile = 128, kDepth = 8, k2dOut = 8, kThreads = 256;
__global__ void __launch_bounds__(kThreads)
    matmulBlockTile2D(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                      int k) {
  __shared__ float s_a[k2dTile * kDepth];
  __shared__ float s_b[kDepth * k2dTile];
  const int row0 = blockIdx.y * k2dTile, col0 = blockIdx.x * k2dTile;
  const int tid = threadIdx.x;
  const int threadCol = tid % (k2dTile / k2dOut), threadRow = tid / (k2dTile / k2dOut);
  float acc[k2dOut][k2dOut] = {};
  float regA[k2dOut], regB[k2dOut];
  for (int p0 = 0; p0 < k; p0 += kDepth) {
    for (int idx = tid; idx < k2dTile * kDepth; idx += kThreads) {
      s_a[idx] = loadOrZero(a, row0 + idx / kDepth, p0 + idx % kDepth, m, k);
      s_b[idx] = loadOrZero(b, p0 + idx / k2dTile, col0 + idx % k2dTile, k, n);
    }
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kDepth; ++p) {
#pragma unroll
      for (int i = 0; i < k2dOut; ++i) regA[i] = s_a[(threadRow * k2dOut + i) * kDepth + p];
#pragma unroll
      for (int j = 0; j < k2dOut; ++j) regB[j] = s_b[p * k2dTile + threadCol * k2dOut + j];
#pragma unroll
      for (int i = 0; i < k2dOut; ++i)
#pragma unroll
        for (int j = 0; j < k2dOut; ++j) acc[i][j] = __fmaf_rn(regA[i], regB[j], acc[i][j]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < k2dOut; ++i) {
    const int row = row0 + threadRow * k2dOut + i;
#pragma unroll
    for (int j = 0; j < k2dOut; ++j) {
      const int col = col0 + threadCol * k2dOut + j;
      if (row < m && col < n) c[static_cast<Index>(row) * n + col] = acc[i][j];
    }
  }
}

// Rungs 5-7 share one kernel. A thread's TM x TN outputs sit in groups of 4 rows and 4 columns,
// the groups 4 * (tile / TN) apart, so that its float4 reads of shared memory are conflict-free.
template <int BM, int BN, int TM, int TN>
struct TileShape {
  static constexpr int kColsOfThreads = BN / TN;
  static constexpr int kThreadCount = (BM / TM) * kColsOfThreads;
  static constexpr int kRowGroupStride = 4 * (BM / TM);
  static constexpr int kColGroupStride = 4 * kColsOfThreads;
  static constexpr int kPadA = 4;  // s_a rows BM + 4 apart: the transposed stores spread over the banks
  static constexpr int kALoads = (BM * kDepth / 4 + kThreadCount - 1) / kThreadCount;
  static constexpr int kBLoads = (BN * kDepth / 4 + kThreadCount - 1) / kThreadCount;
  static_assert(kThreadCount == kThreads && TM % 4 == 0 && TN % 4 == 0);
};

// Four consecutive elements of a row; one 16-byte load when kVector (cols % 4 == 0, so the row is
// aligned and col + 3 < cols whenever col < cols), else four guarded loads.
template <bool kVector>
__device__ __forceinline__ float4 load4(const float* __restrict__ x, int row, int col, int rows, int cols) {
  if constexpr (kVector) {
    if (row < rows && col < cols) return *reinterpret_cast<const float4*>(x + static_cast<Index>(row) * cols + col);
    return make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  } else {
    return make_float4(loadOrZero(x, row, col, rows, cols), loadOrZero(x, row, col + 1, rows, cols),
                       loadOrZero(x, row, col + 2, rows, cols), loadOrZero(x, row, col + 3, rows, cols));
  }
}

template <class S, bool kVector>
struct TileLoads {
  float4 a[S::kALoads];
  float4 b[S::kBLoads];

  template <int BM, int BN>
  __device__ __forceinline__ void fetch(const float* __restrict__ ga, const float* __restrict__ gb, int row0, int col0,
                                        int p0, int m, int n, int k) {
#pragma unroll
    for (int l = 0; l < S::kALoads; ++l) {
      const int idx = threadIdx.x + l * kThreads;
      if (idx < BM * kDepth / 4) a[l] = load4<kVector>(ga, row0 + idx / (kDepth / 4), p0 + idx % (kDepth / 4) * 4, m, k);
    }
#pragma unroll
    for (int l = 0; l < S::kBLoads; ++l) {
      const int idx = threadIdx.x + l * kThreads;
      if (idx < BN * kDepth / 4) b[l] = load4<kVector>(gb, p0 + idx / (BN / 4), col0 + idx % (BN / 4) * 4, k, n);
    }
  }

  // A goes in transposed (s_a[p][row]) so the compute loop reads 4 rows of A as one float4.
  template <int BM, int BN>
  __device__ __forceinline__ void store(float (*s_a)[BM + S::kPadA], float (*s_b)[BN]) const {
#pragma unroll
    for (int l = 0; l < S::kALoads; ++l) {
      const int idx = threadIdx.x + l * kThreads;
      if (idx >= BM * kDepth / 4) continue;
      const int row = idx / (kDepth / 4), p = idx % (kDepth / 4) * 4;
      s_a[p][row] = a[l].x;
      s_a[p + 1][row] = a[l].y;
      s_a[p + 2][row] = a[l].z;
      s_a[p + 3][row] = a[l].w;
    }
#pragma unroll
    for (int l = 0; l < S::kBLoads; ++l) {
      const int idx = threadIdx.x + l * kThreads;
      if (idx < BN * kDepth / 4) *reinterpret_cast<float4*>(&s_b[idx / (BN / 4)][idx % (BN / 4) * 4]) = b[l];
    }
  }
};

// Rung 5, vectorised loads: 16-byte global loads (where k and n are multiples of 4), A stored
// transposed so shared memory is read as float4 too, float4 stores of C.
// Rung 6, double buffering (kDoubleBuffer): two shared stages; the next tile's global loads are in
// flight in registers while this tile is computed, and one barrier per step instead of two.
// Rung 7, grid fit: the same kernel with 64x64 tiles of 4x4 outputs where 128x128 tiles would not
// give every SM a block (launchMatmul decides): 1000^3 makes 64 such tiles for an H100's 132 SMs.
template <int BM, int BN, int TM, int TN, bool kVector, bool kDoubleBuffer>
__global__ void __launch_bounds__(kThreads)
    matmulRegisterTiles(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int m, int n,
                        int k) {
  using S = TileShape<BM, BN, TM, TN>;
  constexpr int kStages = kDoubleBuffer ? 2 : 1;
  __shared__ __align__(16) float s_a[kStages][kDepth][BM + S::kPadA];
  __shared__ __align__(16) float s_b[kStages][kDepth][BN];
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  const int threadCol = threadIdx.x % S::kColsOfThreads, threadRow = threadIdx.x / S::kColsOfThreads;
  float acc[TM][TN] = {};
  float regA[TM], regB[TN];
  TileLoads<S, kVector> loads;
  const int steps = (k + kDepth - 1) / kDepth;
  if constexpr (kDoubleBuffer) {
    loads.template fetch<BM, BN>(a, b, row0, col0, 0, m, n, k);
    loads.template store<BM, BN>(s_a[0], s_b[0]);
    __syncthreads();
  }
  for (int step = 0; step < steps; ++step) {
    const int stage = kDoubleBuffer ? step % 2 : 0;
    if constexpr (kDoubleBuffer) {
      if (step + 1 < steps) loads.template fetch<BM, BN>(a, b, row0, col0, (step + 1) * kDepth, m, n, k);
    } else {
      loads.template fetch<BM, BN>(a, b, row0, col0, step * kDepth, m, n, k);
      loads.template store<BM, BN>(s_a[0], s_b[0]);
      __syncthreads();
    }
#pragma unroll
    for (int p = 0; p < kDepth; ++p) {
#pragma unroll
      for (int g = 0; g < TM / 4; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(&s_a[stage][p][g * S::kRowGroupStride + threadRow * 4]);
        regA[4 * g] = v.x, regA[4 * g + 1] = v.y, regA[4 * g + 2] = v.z, regA[4 * g + 3] = v.w;
      }
#pragma unroll
      for (int g = 0; g < TN / 4; ++g) {
        const float4 v = *reinterpret_cast<const float4*>(&s_b[stage][p][g * S::kColGroupStride + threadCol * 4]);
        regB[4 * g] = v.x, regB[4 * g + 1] = v.y, regB[4 * g + 2] = v.z, regB[4 * g + 3] = v.w;
      }
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = __fmaf_rn(regA[i], regB[j], acc[i][j]);
    }
    if constexpr (kDoubleBuffer) {
      if (step + 1 < steps) loads.template store<BM, BN>(s_a[1 - stage], s_b[1 - stage]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + (i / 4) * S::kRowGroupStride + threadRow * 4 + i % 4;
    if (row >= m) continue;
    float* c_row = c + static_cast<Index>(row) * n;
#pragma unroll
    for (int g = 0; g < TN / 4; ++g) {
      const int col = col0 + g * S::kColGroupStride + threadCol * 4;
      const float* v = &acc[i][4 * g];
      if (kVector && col + 3 < n) {
        *reinterpret_cast<float4*>(c_row + col) = make_float4(v[0], v[1], v[2], v[3]);
      } else {
        for (int q = 0; q < 4; ++q) {
          if (col + q < n) c_row[col + q] = v[q];
        }
      }
    }
  }
}

dim3 gridFor(int m, int n, int tileRows, int tileCols) {
  return dim3(static_cast<unsigned>((n + tileCols - 1) / tileCols), static_cast<unsigned>((m + tileRows - 1) / tileRows));
}

template <int BM, int BN, int TM, int TN, bool kDoubleBuffer>
void launchRegisterTiles(const float* a, const float* b, float* c, int m, int n, int k, cudaStream_t stream) {
  const dim3 grid = gridFor(m, n, BM, BN);
  if (k % 4 == 0 && n % 4 == 0) {
    matmulRegisterTiles<BM, BN, TM, TN, true, kDoubleBuffer><<<grid, kThreads, 0, stream>>>(a, b, c, m, n, k);
  } else {
    matmulRegisterTiles<BM, BN, TM, TN, false, kDoubleBuffer><<<grid, kThreads, 0, stream>>>(a, b, c, m, n, k);
  }
}

}  // namespace

const char* matmulKernelName(MatmulKernel kernel) {
  switch (kernel) {
    case MatmulKernel::Naive: return "gpu-naive";
    case MatmulKernel::Tiled16: return "gpu-tiled16";
    case MatmulKernel::BlockTile1D: return "gpu-blocktile-1d";
    case MatmulKernel::BlockTile2D: return "gpu-blocktile-2d";
    case MatmulKernel::Vectorized: return "gpu-vectorized";
    case MatmulKernel::DoubleBuffered: return "gpu-double-buffered";
    case MatmulKernel::GridFit: return "gpu-grid-fit";
  }
  return "?";
}

const char* matmulKernelDescription(MatmulKernel kernel) {
  switch (kernel) {
    case MatmulKernel::Naive: return "one thread per output, operands from global memory (the original example's kernel 0)";
    case MatmulKernel::Tiled16: return "16x16 tiles of A and B staged in shared memory (the original example's kernel 1)";
    case MatmulKernel::BlockTile1D: return "64x64 tiles, 8 outputs a thread: one B value serves 8 multiply-adds";
    case MatmulKernel::BlockTile2D: return "128x128 tiles, 8x8 outputs a thread from registers";
    case MatmulKernel::Vectorized: return "16-byte global loads, A transposed in shared memory, float4 reads";
    case MatmulKernel::DoubleBuffered: return "two shared stages: next tile's loads overlap this tile's math";
    case MatmulKernel::GridFit: return "64x64 tiles of 4x4 where 128x128 tiles leave SMs idle";
  }
  return "?";
}

void launchMatmul(MatmulKernel kernel, const float* d_a, const float* d_b, float* d_c, int m, int n, int k,
                  int multiprocessors, StreamView view) {
  const cudaStream_t stream = view.get();
  if (m <= 0 || n <= 0) return;
  switch (kernel) {
    case MatmulKernel::Naive:
      matmulNaive<<<gridFor(m, n, kSeedTile, kSeedTile), dim3(kSeedTile, kSeedTile), 0, stream>>>(d_a, d_b, d_c, m, n, k);
      break;
    case MatmulKernel::Tiled16:
      matmulTiled16<<<gridFor(m, n, kSeedTile, kSeedTile), dim3(kSeedTile, kSeedTile), 0, stream>>>(d_a, d_b, d_c, m, n,
                                                                                                      k);
      break;
    case MatmulKernel::BlockTile1D:
      matmulBlockTile1D<<<gridFor(m, n, k1dTile, k1dTile), k1dThreads, 0, stream>>>(d_a, d_b, d_c, m, n, k);
      break;
    case MatmulKernel::BlockTile2D:
      matmulBlockTile2D<<<gridFor(m, n, k2dTile, k2dTile), kThreads, 0, stream>>>(d_a, d_b, d_c, m, n, k);
      break;
    case MatmulKernel::Vectorized:
      launchRegisterTiles<128, 128, 8, 8, false>(d_a, d_b, d_c, m, n, k, stream);
      break;
    case MatmulKernel::DoubleBuffered:
      launchRegisterTiles<128, 128, 8, 8, true>(d_a, d_b, d_c, m, n, k, stream);
      break;
    case MatmulKernel::GridFit: {
      const dim3 large = gridFor(m, n, 128, 128);
      if (static_cast<long long>(large.x) * large.y >= multiprocessors) {
        launchRegisterTiles<128, 128, 8, 8, true>(d_a, d_b, d_c, m, n, k, stream);
      } else {
        launchRegisterTiles<64, 64, 4, 4, true>(d_a, d_b, d_c, m, n, k, stream);
      }
      break;
    }
  }
  SIGLAB_CUDA_CHECK_LAUNCH();
}

}  // namespace siglab::cuda
