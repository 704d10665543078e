#pragma once
// The array-reversal ladder's CPU side: the input, the CPU rung, the check every rung's
// output goes through, and the global-memory efficiency of each GPU rung's access pattern.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "siglab/ladder.hpp"
#include "siglab/measure.hpp"

namespace siglab {

// Random int32 in [0, 2^31 - 2]: never the poison value -1 that outputs are filled with.
std::vector<std::int32_t> randomReversalInput(std::size_t count, std::uint64_t seed);

// Bytes one reversal moves: every element read once and written once.
double reversalBytes(std::size_t count);

// Rung "cpu-reverse-copy": std::reverse_copy of `in` into `out`, timed by measure(), checked.
LadderRung reverseOnCpu(std::span<const std::int32_t> in, std::span<std::int32_t> out, const MeasureOptions& options);

// Sets rung.result and rung.correct: out[i] == in[n - 1 - i] for every i, or the first index where not.
void checkReversal(std::span<const std::int32_t> in, std::span<const std::int32_t> out, LadderRung& rung);

// The GPU rungs' access patterns (cuda/src/reverse_kernels.cu), reproduced on the host.
enum class ReversePattern {
  OneElementPerThread,  // gpu-one-block and gpu-global: load in[i], store out[n - 1 - i]
  SharedTile,           // gpu-shared: 256-element tiles, store out[n - 256 (b + 1) + t]
  Vector16,             // gpu-vector16: int4 stores of out[4m..4m+3]; int4 loads where n % 4 == 0
};

// Global load and store efficiency: bytes the warps ask for over bytes moved in 32-byte sectors
// (1.0 = every byte moved is used), counted warp instruction by warp instruction over the first
// min(n, 2^22) elements, which repeat the pattern of the rest.
struct AccessEfficiency {
  double load = 0.0;
  double store = 0.0;
};
AccessEfficiency reversalAccessEfficiency(ReversePattern pattern, std::int64_t n);

// "load 100% / store 80%" for a rung's `access` field.
std::string accessText(const AccessEfficiency& efficiency);

}  // namespace siglab
