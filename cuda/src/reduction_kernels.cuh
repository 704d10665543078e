#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "stream.hpp"

namespace siglab::cuda {

// The ladder's rungs, in order.
enum class ReduceKernel {
  Neighbored,
  NeighboredLessDivergence,
  Interleaved,
  Unroll2,
  Unroll8LastWarp,
  CompleteUnroll,
  WarpShuffle16B,
};
inline constexpr int kReduceKernelCount = 7;

const char* reduceKernelName(ReduceKernel kernel);
const char* reduceKernelDescription(ReduceKernel kernel);

enum class ReduceOp { Sum, SumOfSquares };

// Partial sums the largest launch of `kernel` writes for n inputs (the size of d_partial).
std::int64_t reducePartialCount(ReduceKernel kernel, std::int64_t n);

// Sums n values of d_in (16-byte aligned) into *d_result in two passes: `kernel` writes one
// partial sum per block into d_partial, then one block adds those up. Acc is int64 for int32 input.
void launchReduce(ReduceKernel kernel, ReduceOp op, const std::int32_t* d_in, std::int64_t n, long long* d_partial,
                  long long* d_result, StreamView stream);
void launchReduce(ReduceKernel kernel, ReduceOp op, const double* d_in, std::int64_t n, double* d_partial,
                  double* d_result, StreamView stream);

}  // namespace siglab::cuda
