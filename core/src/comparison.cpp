#include "siglab/comparison.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <type_traits>

#include "siglab/cpu_serial.hpp"

namespace siglab {
namespace {

template <typename Sample>
BackendResult runOne(FilterBackend& backend, std::span<const Sample> in, const FilterSpec& spec,
                     const RunOptions& options, std::span<Sample> out) {
  BackendResult result;
  result.name = std::string(backend.name());
  result.description = std::string(backend.description());
  if (std::string reason = backend.unavailableReason(); !reason.empty()) {
    result.run.status = RunStatus::Unavailable;
    result.run.message = std::move(reason);
    return result;
  }
  std::fill(out.begin(), out.end(), std::numeric_limits<Sample>::quiet_NaN());  // poison: unwritten shows
  try {
    result.run = backend.run(in, spec, out, options);
  } catch (const std::exception& e) {
    result.run.status = RunStatus::Failed;
    result.run.message = e.what();
  }
  return result;
}

// Values as float64: the span itself, or a widened (exact) copy of float32 ones in `storage`.
std::span<const double> asFloat64(std::span<const double> values, std::vector<double>& /*storage*/) { return values; }
std::span<const double> asFloat64(std::span<const float> values, std::vector<double>& storage) {
  storage.assign(values.begin(), values.end());
  return storage;
}

template <typename Sample>
Comparison runComparisonAs(const BackendList& backends, std::span<const Sample> in, const FilterSpec& spec,
                           const RunOptions& options, const ComparisonProgress& progress) {
  validate(spec);
  Comparison comparison;
  comparison.spec = spec;
  comparison.options = options;
  comparison.samples = in.size();
  comparison.sampleType = std::is_same_v<Sample, float> ? SampleType::f32 : SampleType::f64;

  const std::size_t count = 1 + static_cast<std::size_t>(std::count_if(
      backends.begin(), backends.end(), [](const auto& b) { return b->name() != "cpu-serial"; }));

  std::vector<Sample> reference(in.size());
  CpuSerialBackend serial;
  BackendResult refResult = runOne(serial, in, spec, options, std::span<Sample>(reference));
  if (refResult.run.status != RunStatus::Ok) throw std::runtime_error("cpu-serial failed: " + refResult.run.message);
  refResult.agrees = true;
  comparison.results.push_back(std::move(refResult));
  comparison.reference.assign(reference.begin(), reference.end());
  if (progress) progress(1, count);

  std::vector<double> widened;
  const double maxAbsInput = maxAbs(asFloat64(in, widened));
  std::vector<Sample> out(in.size());
  for (const auto& backend : backends) {
    if (backend->name() == "cpu-serial") continue;
    BackendResult r = runOne(*backend, in, spec, options, std::span<Sample>(out));
    if (r.run.status == RunStatus::Ok) {
      r.agreement = compareResults(comparison.reference, asFloat64(std::span<const Sample>(out), widened));
      r.tolerance = std::is_same_v<Sample, float> ? backend->toleranceFloat32(spec, maxAbsInput)
                                                  : backend->tolerance(spec, maxAbsInput);
      r.agrees = r.tolerance == 0.0 ? r.agreement.bitIdentical() : r.agreement.maxAbsDiff <= r.tolerance;
    }
    comparison.results.push_back(std::move(r));
    if (progress) progress(comparison.results.size(), count);
  }
  return comparison;
}

// Baseline's median over r's for one of the run's timings; 0 when either did not run.
double speedupOf(const BackendResult* baseline, const BackendResult& r, TimingStats FilterRun::*timing) {
  if (!baseline || baseline->run.status != RunStatus::Ok || r.run.status != RunStatus::Ok ||
      (r.run.*timing).medianMs <= 0.0) {
    return 0.0;
  }
  return (baseline->run.*timing).medianMs / (r.run.*timing).medianMs;
}

}  // namespace

const BackendResult* Comparison::find(std::string_view name) const {
  for (const auto& r : results) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

bool Comparison::allAgree() const {
  return std::all_of(results.begin(), results.end(),
                     [](const BackendResult& r) { return r.run.status != RunStatus::Ok || r.agrees; });
}

double Comparison::kernelSpeedup(const BackendResult& r, std::string_view baseline) const {
  return speedupOf(find(baseline), r, &FilterRun::kernel);
}

double Comparison::endToEndSpeedup(const BackendResult& r, std::string_view baseline) const {
  return speedupOf(find(baseline), r, &FilterRun::total);
}

Comparison runComparison(const BackendList& backends, std::span<const double> in, const FilterSpec& spec,
                         const RunOptions& options, const ComparisonProgress& progress) {
  return runComparisonAs(backends, in, spec, options, progress);
}

Comparison runComparison(const BackendList& backends, std::span<const float> in, const FilterSpec& spec,
                         const RunOptions& options, const ComparisonProgress& progress) {
  return runComparisonAs(backends, in, spec, options, progress);
}

}  // namespace siglab
