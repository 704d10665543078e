#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "stream.hpp"

namespace siglab::cuda {

// The reversal ladder's GPU rungs, in order: out[i] = in[n - 1 - i].
enum class ReverseKernel { OneBlock, Global, Shared, Vector16 };
inline constexpr int kReverseKernelCount = 4;

const char* reverseKernelName(ReverseKernel kernel);
const char* reverseKernelDescription(ReverseKernel kernel);

// d_in and d_out: n int32 each, 16-byte aligned (cudaMalloc), not overlapping.
void launchReverse(ReverseKernel kernel, const std::int32_t* d_in, std::int32_t* d_out, std::int64_t n,
                   StreamView stream);

}  // namespace siglab::cuda
