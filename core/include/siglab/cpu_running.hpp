#pragma once
#include <span>
#include <vector>

#include "siglab/filter_backend.hpp"

namespace siglab {

// A uniform window (every tap equal, e.g. the mean) in O(N) whatever W: a running window sum,
// one sample in and one out per output, compensated (TwoSum), times the tap. Its error against
// the exact result stays below kRunningSumRelativeError x sum|taps| x max|x| (tests check it
// against long double; for the mean, sum|taps| = 1), but it is not bit-identical to cpu-serial.
// float32 signals are summed in double and rounded once. Throws std::invalid_argument for
// non-uniform taps; the backend reports them, and non-finite samples (which would stay in the
// running sum), as Unavailable.
// Stops between pieces when `progress` is cancelled (throws Cancelled). Returns where its sums
// restart: the pieces, the four lanes inside each, and where each piece leaves the edges.
std::vector<std::size_t> filterRunning(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                       const Progress& progress = {});
std::vector<std::size_t> filterRunning(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                       const Progress& progress = {});

inline constexpr double kRunningSumRelativeError = 1e-12;

/// The cpu-running engine: filterRunning, for uniform windows.
class CpuRunningBackend final : public FilterBackend {
 public:
  std::string_view name() const override { return "cpu-running"; }
  std::string_view description() const override {
    return "CPU, O(N) compensated running sum for uniform windows; all cores; not bit-identical";
  }
  // Its own bound plus the rounding cpu-serial itself may make.
  double tolerance(const FilterSpec& spec, double maxAbsInput) const override;
  double toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const override;
  // Uniform taps only; non-finite samples are refused when seen (EngineUnavailable).
  std::string whyNot(const FilterSpec& spec, SampleType type) const override;
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& options, const Progress& progress = {}) override;
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                    const RunOptions& options, const Progress& progress = {}) override;
};

}  // namespace siglab
