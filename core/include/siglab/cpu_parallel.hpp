#pragma once
#include <span>
#include <vector>

#include "siglab/filter_backend.hpp"

namespace siglab {

// cpu-serial's arithmetic on every core, with SIMD across neighbouring outputs (never across
// taps): each output is still summed j = 0..W-1 from zero, so the result is bit-identical.
// Stops between pieces (a few milliseconds of work each) when `progress` is cancelled (throws Cancelled). Returns where the pieces
// begin (the first apart).
std::vector<std::size_t> filterParallel(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                        const Progress& progress = {});
std::vector<std::size_t> filterParallel(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                        const Progress& progress = {});

/// The cpu-parallel engine: every core, bit-identical to cpu-serial for taps.
class CpuParallelBackend final : public FilterBackend {
 public:
  std::string_view name() const override { return "cpu-parallel"; }
  std::string_view description() const override {
    return "CPU, all cores (OpenMP) and SIMD across outputs; bit-identical to cpu-serial (sections: block scan, "
           "within its stated bound)";
  }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override;
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override;
  double toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const override;
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& options, const Progress& progress = {}) override;
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                    const RunOptions& options, const Progress& progress = {}) override;
};

}  // namespace siglab
