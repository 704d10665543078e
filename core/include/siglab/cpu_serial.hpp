#pragma once
#include <span>

#include "siglab/filter_backend.hpp"

namespace siglab {

// The reference: the original program's direct loop, generalised to any taps and boundary mode.
// Products are summed in tap order j = 0..W-1 from 0.0, never contracted into FMAs (core builds with
// -ffp-contract=off), so every machine and every exact backend gives the same bits. Looks at
// `progress` every few milliseconds of work and stops when it is cancelled (throws Cancelled).
void filterSerial(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                  const Progress& progress = {});
// float32: the same order, in float with the taps rounded to float, or in double when
// spec.accumulator is Float64 (the result then rounded once to float).
void filterSerial(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                  const Progress& progress = {});

/// The cpu-serial engine: the reference every other engine is checked against.
class CpuSerialBackend final : public FilterBackend {
 public:
  std::string_view name() const override { return "cpu-serial"; }
  std::string_view description() const override { return "CPU reference: the serial loop, one output at a time, taps in order"; }
  std::string whyNot(const FilterSpec& spec, SampleType type) const override;
  FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                    const RunOptions& options, const Progress& progress = {}) override;
  FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                    const RunOptions& options, const Progress& progress = {}) override;
};

}  // namespace siglab
