#include "lab_ladders.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <type_traits>

#include "siglab/cuda_lab.hpp"
#include "siglab/lab_reduction.hpp"
#include "siglab/lab_reverse.hpp"

namespace siglab {
namespace {

constexpr const char* kReductionNote =
    "Each rung sums the same values, one change more than the last. The CPU adds them in order. Neighbored pairs "
    "add neighbours in a shared-memory tree (most warps diverge); the next rung keeps the working threads together; "
    "interleaved pairs halve the stride instead, so shared-memory accesses do not conflict; unroll-2 and unroll-8 "
    "add several blocks' worth of inputs while loading, and unroll-8 finishes the last warp with shuffles; complete "
    "unroll makes the block size a template constant; warp-shuffle-16B loads 16 bytes at a time, strides over the "
    "grid and reduces in registers. CUB's device-wide sum is the yardstick.";
constexpr const char* kReversalNote =
    "Each rung reverses the same int32 array, one change more than the last. The CPU calls std::reverse_copy. One "
    "block strides over the whole array: correct, but one SM works. Many blocks, one element a thread, use the "
    "whole GPU; a warp's stores go to descending addresses, which on the G80 the original example was written for broke coalescing, while today "
    "only the 32-byte sectors touched count. Reversing each tile in shared memory makes the stores ascend (the "
    "original example's fast version). The best rung moves 16 bytes per load and store, four chunks in flight per thread. The "
    "yardstick is a device-to-device copy of the same bytes; the access column is bytes requested per byte moved.";
constexpr const char* kMatmulNote =
    "Each rung computes the same float32 product C = AB, one change more than the last. The CPU runs the textbook "
    "loop, then a cache-blocked version on every core. On the GPU: one thread per output reading A and B from "
    "global memory; the original example's 16x16 tiles staged in shared memory; 64x64 tiles with 8 outputs per thread; 128x128 "
    "tiles with 8x8 outputs per thread held in registers; 16-byte loads with A transposed in shared memory; two "
    "shared-memory stages so the next tile loads while this one is computed; and 64x64 tiles when 128x128 ones "
    "would leave SMs idle. cublasSgemm without tensor cores (default and pedantic math, the faster of the two) is the "
    "yardstick.";

void addGpuProblem(Ladder& ladder, const std::string& problem) {
  if (!problem.empty()) ladder.footnotes.push_back("GPU rungs not run: " + problem);
}

// The fastest rung and the named one as fractions of the yardstick, for the footnotes.
void addFractions(Ladder& ladder, const char* seedRung) {
  const LadderRung* best = fastestRung(ladder);
  const LadderRung* yardstick = yardstickOf(ladder);
  if (!best || !yardstick) return;
  char line[200];
  std::snprintf(line, sizeof line, "fastest rung %s: %.3fx %s (%.1f %s)", best->name.c_str(), best->ofYardstick,
                yardstick->name.c_str(), best->rate, ladder.rateUnit.c_str());
  ladder.footnotes.push_back(line);
  if (const LadderRung* seed = findRung(ladder, seedRung); seed && seed->ran()) {
    std::snprintf(line, sizeof line, "the original example's %s: %.3fx %s", seed->name.c_str(), seed->ofYardstick,
                  yardstick->name.c_str());
    ladder.footnotes.push_back(line);
  }
}

std::string mib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MiB", bytes / (1 << 20));
  return text;
}

template <class In>
Ladder reductionLab(std::span<const In> values, int repeat, const std::string& title) {
  constexpr bool kInteger = std::is_same_v<In, std::int32_t>;
  Ladder ladder;
  ladder.title = title + ": " + countText(values.size()) + (kInteger ? " int32" : " float64") + " (" +
                 mib(static_cast<double>(values.size_bytes())) + ")";
  ladder.rateUnit = "GB/s";
  ladder.note = kReductionNote;
  std::conditional_t<kInteger, std::int64_t, double> cpuSum{};
  LadderRung cpu = sumOnCpu(values, MeasureOptions{1, repeat}, cpuSum);
  const ReductionLadder gpu = runReductionLadder(values, repeat);
  char text[96];
  if constexpr (kInteger) {
    const std::int64_t exact = std::accumulate(values.begin(), values.end(), std::int64_t{0});
    cpu.correct = cpuSum == exact;
    std::snprintf(text, sizeof text, "%lld %s", static_cast<long long>(cpuSum), cpu.correct ? "exact" : "WRONG");
    ladder.footnotes.push_back("reference: " + std::to_string(exact) + " (64-bit CPU sum); integer sums must be exact");
  } else {
    const double reference = compensatedSum(values);
    std::snprintf(text, sizeof text, "%.17g", reference);
    ladder.footnotes.push_back(std::string("reference: ") + text + " (compensated CPU sum)");
    std::snprintf(text, sizeof text, "%.17g err %.2g", cpuSum, std::abs(cpuSum - reference));
  }
  cpu.result = text;
  ladder.rungs.push_back(cpu);
  addGpuProblem(ladder, gpu.problem);
  const std::vector<LadderRung> gpuRungs = reductionRungs(gpu);
  ladder.rungs.insert(ladder.rungs.end(), gpuRungs.begin(), gpuRungs.end());
  computeLadderMetrics(ladder);
  addFractions(ladder, "neighbored");
  return ladder;
}

}  // namespace

std::string labNote(LabExperiment experiment) {
  switch (experiment) {
    case LabExperiment::Reduction: return kReductionNote;
    case LabExperiment::Reversal: return kReversalNote;
    case LabExperiment::Matmul: return kMatmulNote;
  }
  return {};
}

std::string countText(std::size_t count) {
  if (count >= 1024 && std::has_single_bit(count)) return "2^" + std::to_string(std::countr_zero(count));
  std::string digits = std::to_string(count), text;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) text += ',';
    text += digits[i];
  }
  return text;
}

Ladder runReductionLab(std::span<const std::int32_t> values, int repeat, const std::string& title) {
  return reductionLab(values, repeat, title);
}
Ladder runReductionLab(std::span<const double> values, int repeat, const std::string& title) {
  return reductionLab(values, repeat, title);
}

Ladder runReversalLab(std::size_t count, int repeat, std::uint64_t seed) {
  Ladder ladder;
  ladder.title = "reverse " + countText(count) + " int32 (" + mib(4.0 * static_cast<double>(count)) + ")";
  ladder.rateUnit = "GB/s";
  ladder.note = kReversalNote;
  const std::vector<std::int32_t> in = randomReversalInput(count, seed);
  {
    std::vector<std::int32_t> out(count);
    ladder.rungs.push_back(reverseOnCpu(in, out, MeasureOptions{1, repeat}));
  }
  const GpuRungs gpu = runReversalOnGpu(in, MeasureOptions{1, repeat});
  addGpuProblem(ladder, gpu.problem);
  ladder.rungs.insert(ladder.rungs.end(), gpu.rungs.begin(), gpu.rungs.end());
  computeLadderMetrics(ladder);
  ladder.footnotes.push_back("GB/s counts bytes read plus bytes written; access: bytes requested per byte moved in "
                             "32-byte sectors, from each kernel's access pattern");
  addFractions(ladder, "gpu-shared");
  return ladder;
}

Ladder runMatmulLab(const MatmulShape& shape, int repeat, std::uint64_t seed) {
  Ladder ladder;
  char title[96];
  std::snprintf(title, sizeof title, "matmul float32: C (%lld x %lld) = A (%lld x %lld) B (%lld x %lld)",
                static_cast<long long>(shape.m), static_cast<long long>(shape.n), static_cast<long long>(shape.m),
                static_cast<long long>(shape.k), static_cast<long long>(shape.k), static_cast<long long>(shape.n));
  ladder.title = title;
  ladder.rateUnit = "GFLOP/s";
  ladder.note = kMatmulNote;
  const std::vector<float> a = randomMatrix(shape.m, shape.k, seed);
  const std::vector<float> b = randomMatrix(shape.k, shape.n, seed + 1);
  const int cpuRepeat = std::min(repeat, 3);  // the CPU rungs take seconds a run at large sizes
  ladder.rungs.push_back(matmulOnCpu(false, a, b, shape, MeasureOptions{1, cpuRepeat}));
  ladder.rungs.push_back(matmulOnCpu(true, a, b, shape, MeasureOptions{1, cpuRepeat}));
  const GpuRungs gpu = runMatmulOnGpu(a, b, shape, MeasureOptions{1, repeat});
  addGpuProblem(ladder, gpu.problem);
  ladder.rungs.insert(ladder.rungs.end(), gpu.rungs.begin(), gpu.rungs.end());
  computeLadderMetrics(ladder);
  char bound[160];
  std::snprintf(bound, sizeof bound,
                "checked against a float64 product: |err| <= (gamma_K(2^-24) + gamma_K(2^-53)) sum|a||b|, "
                "gamma_K(u) = Ku/(1-Ku), K = %lld: factor %.3g",
                static_cast<long long>(shape.k), matmulErrorFactor(shape.k));
  ladder.footnotes.push_back(bound);
  addFractions(ladder, "gpu-tiled16");
  return ladder;
}

}  // namespace siglab
