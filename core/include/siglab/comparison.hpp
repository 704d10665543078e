#pragma once
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "siglab/compare.hpp"
#include "siglab/filter_backend.hpp"
#include "siglab/io/sample_type.hpp"

namespace siglab {

enum class RunStatus { Ok, Unavailable, Failed };

// One engine measured: its phases over the timed executions, or why there are none.
struct FilterRun {
  RunStatus status = RunStatus::Ok;
  std::string message;     // the reason when not Ok; the engine's note (a fallback, its chunks) otherwise
  TimingStats kernel;      // the computation alone
  TimingStats transfer;    // host<->device copies (zero for CPU engines)
  TimingStats total;       // end to end: what a caller waits for, copies included
};

// How a comparison runs each engine: its run options, and the warm-ups and repeats measure() makes.
struct CompareOptions {
  RunOptions run;
  MeasureOptions measure;
};

// One backend's line in a comparison.
struct BackendResult {
  std::string name;
  std::string description;
  bool usesGpu = false;     // as the engine says
  FilterRun run;
  Agreement agreement;      // against cpu-serial; meaningful only when run.status is Ok
  double tolerance = 0.0;   // 0: bit identity required
  bool agrees = false;      // within tolerance (bit-identical when tolerance is 0)
};

// Every chosen backend run on one signal, each verified against the cpu-serial reference.
struct Comparison {
  FilterSpec spec;          // the filter compared; unused where stageKind is set
  // A stage that is not one of the filter kinds (detrend): its kind and description, as the
  // report names it; empty for a filter.
  std::string stageKind;
  std::string stageDescription;
  CompareOptions options;
  std::size_t samples = 0;
  SampleType sampleType = SampleType::f64;  // f64 or f32: what the engines ran in
  std::vector<BackendResult> results;  // cpu-serial first
  std::vector<double> reference;       // cpu-serial's output (a float32 result widened, exactly)

  bool isFilter() const { return stageKind.empty(); }
  const BackendResult* find(std::string_view name) const;
  bool allAgree() const;  // every backend that ran agrees with the reference
  // Speedup of `r` over `baseline`: kernel time against kernel time, end to end against end to
  // end; 0 when either did not run.
  double kernelSpeedup(const BackendResult& r, std::string_view baseline = "cpu-serial") const;
  double endToEndSpeedup(const BackendResult& r, std::string_view baseline = "cpu-serial") const;
};

// Called after each backend finishes: (index of that backend, how many there are).
using ComparisonProgress = std::function<void(std::size_t done, std::size_t count)>;

// Measures cpu-serial, then every other backend in `backends` (a "cpu-serial" entry there is the
// reference and is measured once), each through measure(). A backend whose whyNot() refuses the
// spec, or that fails, is recorded, not thrown. `cancel` is checked inside each engine's run
// (throws Cancelled).
Comparison runComparison(std::span<FilterBackend* const> backends, std::span<const double> in,
                         const FilterSpec& spec, const CompareOptions& options,
                         const ComparisonProgress& progress = {}, const Progress& cancel = {});
Comparison runComparison(std::span<FilterBackend* const> backends, std::span<const float> in,
                         const FilterSpec& spec, const CompareOptions& options,
                         const ComparisonProgress& progress = {}, const Progress& cancel = {});
// The same over every engine of an owning list.
Comparison runComparison(const BackendList& backends, std::span<const double> in,
                         const FilterSpec& spec, const CompareOptions& options,
                         const ComparisonProgress& progress = {}, const Progress& cancel = {});
// The same in float32: every backend's float32 path, checked against cpu-serial's float32 result.
Comparison runComparison(const BackendList& backends, std::span<const float> in, const FilterSpec& spec,
                         const CompareOptions& options, const ComparisonProgress& progress = {},
                         const Progress& cancel = {});

}  // namespace siglab
