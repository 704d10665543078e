#pragma once
// The GPU rungs of the reversal and matrix-multiply ladders and their yardsticks, each timed by
// measure() with CUDA events and checked against the CPU. No CUDA header is needed.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "siglab/lab_matmul.hpp"
#include "siglab/ladder.hpp"
#include "siglab/measure.hpp"

namespace siglab {

struct GpuRungs {
  std::string problem;  // why no GPU rung ran (no GPU, out of memory); empty when they ran
  std::vector<LadderRung> rungs;
};

// gpu-one-block, gpu-global, gpu-shared, gpu-vector16, then the yardstick: a device-to-device copy
// of the same bytes. Each output is poisoned (-1) before its rung and checked exactly afterwards.
GpuRungs runReversalOnGpu(std::span<const std::int32_t> in, const MeasureOptions& options);

// gpu-naive, gpu-tiled16 (the seed), gpu-blocktile-1d, gpu-blocktile-2d, gpu-vectorized,
// gpu-double-buffered, gpu-grid-fit, then cublasSgemm with CUBLAS_DEFAULT_MATH ("cublas-sgemm")
// and with CUBLAS_PEDANTIC_MATH ("cublas-pedantic"), neither using tensor cores: the faster of the
// two is the yardstick, the other an extra row. Outputs are poisoned (NaN) before each rung and
// checked with checkMatmul.
GpuRungs runMatmulOnGpu(std::span<const float> a, std::span<const float> b, const MatmulShape& shape,
                        const MeasureOptions& options);

}  // namespace siglab
