#pragma once
// The block scan's chunk kernel (steps 1 and 3 of sos_scan_steps.hpp): every chunk of kSosScanChunk
// samples through the cascade, one thread per chunk, one warp per 32 neighbouring chunks. The
// samples reach the warp in tiles (32 samples of each of its 32 chunks) copied asynchronously into
// shared memory three tiles ahead, each warp-wide copy 256 contiguous bytes; outputs leave the same
// way. A thread's cascade state and coefficients sit in registers when the section count is known
// at compile time (1 to 8 sections; more run the same code with them in local memory). The kernel
// is bound by the recurrence's floating-point latency, not by memory: 512-sample chunks give twice
// the warps 1024 did, and fused multiply-adds shorten each step (sosStepFused).
#include <cuda_pipeline_primitives.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda_check.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/sos_scan_steps.hpp"

namespace siglab::sos_scan {

inline constexpr int kWarp = 32;
inline constexpr int kChunksPerGroup = kSosScanGroupChunks;
inline constexpr int kTileSamples = 32;  // samples of each chunk a tile holds
inline constexpr int kTileStages = 3;    // tiles in flight per warp
inline constexpr int kLargestUnrolled = 8;

// One sample through the cascade: sosStepFlat's steps with one product of each update fused, so
// that no update rounds more than sosStepFlat's does (each stays within sosScanErrorBound's
// per-step terms): y = b0 x + z0 in one rounding, z0' = (b1 x - a1 y) + z1, z1' = b2 x - a2 y.
// One multiply-add fewer on the path from one sample's z0 to the next's, three operations fewer
// in all.
__device__ __forceinline__ double sosStepFused(const double* c, int sections, double* z, double x) {
#pragma unroll
  for (int k = 0; k < sections; ++k) {
    const double* s = c + 6 * k;
    const double y = fma(s[0], x, z[2 * k]);
    z[2 * k] = fma(-s[4], y, s[1] * x) + z[2 * k + 1];
    z[2 * k + 1] = fma(-s[5], y, s[2] * x);
    x = y;
  }
  return x;
}

// Where step 3 finds a chunk's true start: T[b] = L[b] + P^j S[g], j = b mod kChunksPerGroup.
struct CarryView {
  const double* local;   // per chunk: its start if its group had started from zero
  const double* groups;  // per group: its true start
  const double* powers;  // P^j, j = 0 .. kChunksPerGroup - 1, row-major
};

// One pass over chunks [firstChunk, endChunk) of the n samples x[0], x[stride], ... Without `carry`
// (d_ends given, step 1): from zero state (chunk 0 from zi times *d_scale when `startsSignal`),
// writing end states. With it (d_ends null, step 3): from its true start, writing outputs in place.
struct ChunkPass {
  const double* coef;
  int sections;
  double* x;
  std::int64_t n, stride;
  std::int64_t firstChunk, endChunk;
  bool startsSignal;
  const double* zi;
  const double* scale;
  CarryView carry;
  double* ends;
};

template <int S>  // sections; 0: pass.sections, state and coefficients in local memory
__global__ void __launch_bounds__(kWarp) sosChunkTiles(ChunkPass pass) {
  constexpr int kStates = S == 0 ? kMaxScanStates : 2 * S;
  constexpr int kChunk = kSosScanChunk;
  __shared__ double tile[kTileStages][kWarp][kTileSamples + 1];  // +1: lanes read rows without bank conflicts
  const int lane = static_cast<int>(threadIdx.x);
  const std::int64_t firstOfWarp = pass.firstChunk + static_cast<std::int64_t>(blockIdx.x) * kWarp;
  const auto countOf = [&](std::int64_t b) -> int {
    if (b >= pass.endChunk) return 0;
    const std::int64_t left = pass.n - b * kChunk;
    return left < kChunk ? static_cast<int>(left) : kChunk;
  };
  const std::int64_t b = firstOfWarp + lane;
  const int count = countOf(b);
  const int tiles = (countOf(firstOfWarp) + kTileSamples - 1) / kTileSamples;  // the warp's first chunk is its longest
  const int sections = S == 0 ? pass.sections : S;
  const int d = 2 * sections;

  double coefficients[S == 0 ? 1 : 6 * S];
  const double* c = pass.coef;
  if constexpr (S > 0) {
#pragma unroll
    for (int i = 0; i < 6 * S; ++i) coefficients[i] = pass.coef[i];
    c = coefficients;
  }
  double z[kStates];
  if (count > 0) {
    if (b == 0 && pass.startsSignal) {
      for (int i = 0; i < d; ++i) z[i] = pass.zi[i] * *pass.scale;
    } else if (pass.ends) {
#pragma unroll
      for (int i = 0; i < kStates; ++i) z[i] = 0.0;
    } else {
      const std::int64_t g = b / kChunksPerGroup;
      const double* power = pass.carry.powers + (b % kChunksPerGroup) * d * d;
      const double* groupStart = pass.carry.groups + g * d;
      for (int i = 0; i < d; ++i) {
        double t = pass.carry.local[b * d + i];
        for (int k = 0; k < d; ++k) t = fma(power[i * d + k], groupStart[k], t);
        z[i] = t;
      }
    }
  }

  // Tile t into its stage: row j holds chunk firstOfWarp + j's samples t * kTileSamples + lane.
  const auto fetch = [&](int t) {
    if (t < tiles) {
      const int i = t * kTileSamples + lane;
      for (int j = 0; j < kWarp; ++j) {
        if (i < countOf(firstOfWarp + j)) {
          __pipeline_memcpy_async(&tile[t % kTileStages][j][lane],
                                  pass.x + ((firstOfWarp + j) * kChunk + i) * pass.stride, sizeof(double));
        }
      }
    }
    __pipeline_commit();  // empty groups too: the wait below counts groups
  };
  for (int t = 0; t < kTileStages - 1; ++t) fetch(t);
  const bool writes = pass.ends == nullptr;
  for (int t = 0; t < tiles; ++t) {
    fetch(t + kTileStages - 1);
    __pipeline_wait_prior(kTileStages - 1);
    __syncwarp();
    double* row = tile[t % kTileStages][lane];
    const int first = t * kTileSamples;
    if (first + kTileSamples <= count) {
#pragma unroll
      for (int i = 0; i < kTileSamples; ++i) {
        const double y = sosStepFused(c, sections, z, row[i]);
        if (writes) row[i] = y;
      }
    } else {
      for (int i = 0; first + i < count; ++i) {
        const double y = sosStepFused(c, sections, z, row[i]);
        if (writes) row[i] = y;
      }
    }
    __syncwarp();
    if (writes) {
      const int i = first + lane;
      for (int j = 0; j < kWarp; ++j) {
        if (i < countOf(firstOfWarp + j)) {
          pass.x[((firstOfWarp + j) * kChunk + i) * pass.stride] = tile[t % kTileStages][j][lane];
        }
      }
      __syncwarp();  // the stage is refilled next
    }
  }
  __pipeline_wait_prior(0);
  if (pass.ends && count > 0) {
    for (int i = 0; i < d; ++i) pass.ends[b * d + i] = z[i];
  }
}

template <int S>
void launchChunkTiles(const ChunkPass& pass, cudaStream_t stream) {
  const auto warps = static_cast<unsigned>((pass.endChunk - pass.firstChunk + kWarp - 1) / kWarp);
  sosChunkTiles<S><<<warps, kWarp, 0, stream>>>(pass);
  SIGLAB_CUDA_CHECK_LAUNCH();
}

// The pass on `stream`, with the kernel compiled for its section count where there is one.
inline void runChunkTiles(const ChunkPass& pass, cudaStream_t stream) {
  if (pass.endChunk <= pass.firstChunk) return;
  switch (pass.sections) {
    case 1: return launchChunkTiles<1>(pass, stream);
    case 2: return launchChunkTiles<2>(pass, stream);
    case 3: return launchChunkTiles<3>(pass, stream);
    case 4: return launchChunkTiles<4>(pass, stream);
    case 5: return launchChunkTiles<5>(pass, stream);
    case 6: return launchChunkTiles<6>(pass, stream);
    case 7: return launchChunkTiles<7>(pass, stream);
    case kLargestUnrolled: return launchChunkTiles<kLargestUnrolled>(pass, stream);
    default: return launchChunkTiles<0>(pass, stream);
  }
}

}  // namespace siglab::sos_scan
