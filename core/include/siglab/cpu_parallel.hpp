#pragma once
#include <span>

#include "siglab/filter_backend.hpp"

namespace siglab {

// cpu-serial's arithmetic on every core, with SIMD across neighbouring outputs (never across
// taps): each output is still summed j = 0..W-1 from zero, so the result is bit-identical.
void filterParallel(std::span<const double> in, const FilterSpec& spec, std::span<double> out);
void filterParallel(std::span<const float> in, const FilterSpec& spec, std::span<float> out);

class CpuParallelBackend final : public FilterBackend {
 public:
  std::string_view name() const override { return "cpu-parallel"; }
  std::string_view description() const override {
    return "CPU, all cores (OpenMP) and SIMD across outputs; bit-identical to cpu-serial";
  }
  FilterRun run(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                const RunOptions& options) override;
  FilterRun run(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                const RunOptions& options) override;
};

}  // namespace siglab
