#pragma once
// The Lab's three ladders as the front-ends show them: CPU rungs from core, GPU rungs from cuda,
// one Ladder each with its metrics, footnotes and a note on what each rung changes.
#include <cstdint>
#include <span>
#include <string>

#include "siglab/cuda_reduce.hpp"
#include "siglab/lab_matmul.hpp"
#include "siglab/ladder.hpp"

namespace siglab {

enum class LabExperiment { Reduction, Reversal, Matmul };

// One paragraph on what each rung of the experiment's ladder changes (also the ladder's note).
std::string labNote(LabExperiment experiment);

// Sums `values` on the CPU, then with every GPU rung and CUB (and the sum of squares beside them).
Ladder runReductionLab(std::span<const std::int32_t> values, int repeat, const std::string& title);
Ladder runReductionLab(std::span<const double> values, int repeat, const std::string& title);

// Reverses `count` random int32 on the CPU and with every GPU rung, against a device copy.
Ladder runReversalLab(std::size_t count, int repeat, std::uint64_t seed = 1);

// Multiplies random float32 matrices of `shape` on the CPU and with every GPU rung, against cuBLAS.
Ladder runMatmulLab(const MatmulShape& shape, int repeat, std::uint64_t seed = 1);

// "2^28" for powers of two, else the number with thousands separators.
std::string countText(std::size_t count);

}  // namespace siglab
