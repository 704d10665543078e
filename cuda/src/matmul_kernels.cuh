#pragma once
#include <cuda_runtime.h>

#include "stream.hpp"

namespace siglab::cuda {

// The matrix-multiply ladder's GPU rungs, in order. C (m x n) = A (m x k) B (k x n), row-major
// float32. Every rung multiplies and adds with __fmaf_rn, as cuBLAS does (the library otherwise
// builds with --fmad=false).
enum class MatmulKernel { Naive, Tiled16, BlockTile1D, BlockTile2D, Vectorized, DoubleBuffered, GridFit };
inline constexpr int kMatmulKernelCount = 7;

const char* matmulKernelName(MatmulKernel kernel);
const char* matmulKernelDescription(MatmulKernel kernel);

// d_a, d_b, d_c from cudaMalloc (16-byte aligned); `multiprocessors` guides GridFit's tile choice.
void launchMatmul(MatmulKernel kernel, const float* d_a, const float* d_b, float* d_c, int m, int n, int k,
                  int multiprocessors, StreamView stream);

}  // namespace siglab::cuda
