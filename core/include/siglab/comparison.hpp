#pragma once
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "siglab/compare.hpp"
#include "siglab/filter_backend.hpp"
#include "siglab/io/sample_type.hpp"

namespace siglab {

// One backend's line in a comparison.
struct BackendResult {
  std::string name;
  std::string description;
  FilterRun run;
  Agreement agreement;      // against cpu-serial; meaningful only when run.status is Ok
  double tolerance = 0.0;   // 0: bit identity required
  bool agrees = false;      // within tolerance (bit-identical when tolerance is 0)
};

// Every chosen backend run on one signal, each verified against the cpu-serial reference.
struct Comparison {
  FilterSpec spec;
  RunOptions options;
  std::size_t samples = 0;
  SampleType sampleType = SampleType::f64;  // f64 or f32: what the engines ran in
  std::vector<BackendResult> results;  // cpu-serial first
  std::vector<double> reference;       // cpu-serial's output (a float32 result widened, exactly)

  const BackendResult* find(std::string_view name) const;
  bool allAgree() const;  // every backend that ran agrees with the reference
  // Speedup of `r` over `baseline`: kernel time against kernel time, end to end against end to
  // end; 0 when either did not run.
  double kernelSpeedup(const BackendResult& r, std::string_view baseline = "cpu-serial") const;
  double endToEndSpeedup(const BackendResult& r, std::string_view baseline = "cpu-serial") const;
};

// Called after each backend finishes: (index of that backend, how many there are).
using ComparisonProgress = std::function<void(std::size_t done, std::size_t count)>;

// Runs cpu-serial, then every other backend in `backends` (a "cpu-serial" entry there is the
// reference and runs once). A backend that is unavailable or fails is recorded, not thrown.
Comparison runComparison(const BackendList& backends, std::span<const double> in,
                         const FilterSpec& spec, const RunOptions& options,
                         const ComparisonProgress& progress = {});
// The same in float32: every backend's float32 path, checked against cpu-serial's float32 result.
Comparison runComparison(const BackendList& backends, std::span<const float> in, const FilterSpec& spec,
                         const RunOptions& options, const ComparisonProgress& progress = {});

}  // namespace siglab
