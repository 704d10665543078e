#include "siglab/comparison.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "siglab/cpu_serial.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {
namespace {

// compareResults and maxAbs in stretches, looking at Cancel between them.
Agreement compareInStretches(std::span<const double> reference, std::span<const double> candidate,
                             const Progress& cancel) {
  if (reference.size() != candidate.size()) throw std::invalid_argument("compareResults: sizes differ");
  Agreement all;
  inCancellableStretches(reference.size(), cancel, [&](std::size_t a, std::size_t b) {
    const Agreement part = compareResults(reference.subspan(a, b - a), candidate.subspan(a, b - a));
    if (part.mismatches > 0 && all.mismatches == 0) all.firstMismatch = a + part.firstMismatch;
    all.mismatches += part.mismatches;
    all.maxAbsDiff = std::max(all.maxAbsDiff, part.maxAbsDiff);
  });
  return all;
}
double maxAbsInStretches(std::span<const double> values, const Progress& cancel) {
  double m = 0.0;
  inCancellableStretches(values.size(), cancel, [&](std::size_t a, std::size_t b) { m = std::max(m, maxAbs(values.subspan(a, b - a))); });
  return m;
}

// `progress` covers this engine's share of the comparison: measure() gives each execution an
// equal part of it, and the engine reports inside its run.
template <typename Sample>
BackendResult runOne(FilterBackend& backend, std::span<const Sample> in, const FilterSpec& spec,
                     const CompareOptions& options, std::span<Sample> out, const Progress& progress) {
  BackendResult result;
  result.name = std::string(backend.name());
  result.description = std::string(backend.description());
  result.usesGpu = backend.usesGpu();
  const SampleType type = std::is_same_v<Sample, float> ? SampleType::f32 : SampleType::f64;
  if (std::string reason = backend.whyNot(spec, type); !reason.empty()) {
    result.run.status = RunStatus::Unavailable;
    result.run.message = std::move(reason);
    progress.report(1.0);
    return result;
  }
  try {
    std::string note;
    const double executions = std::max(0, options.measure.warmups) + std::max(1, options.measure.repeats);
    int execution = 0;
    const PhaseStats stats = measure(
        [&] {
          // poison: unwritten shows
          inCancellableStretches(out.size(), progress, [&](std::size_t a, std::size_t b) {
            std::fill(out.begin() + a, out.begin() + b, std::numeric_limits<Sample>::quiet_NaN());
          });
          const Progress once = progressPart(progress, execution / executions, (execution + 1) / executions);
          ++execution;
          FilterPass pass = backend.filter(in, spec, out, options.run, once);
          note = std::move(pass.note);
          return pass.phases;
        },
        options.measure, progress);
    finishEdges(in, spec, out, progress);  // Savitzky-Golay's interp edges: the CPU's, whatever engine ran
    result.run.kernel = stats.kernel;
    result.run.transfer = stats.transfer;
    result.run.total = stats.total;
    result.run.message = std::move(note);
  } catch (const Cancelled&) {
    throw;
  } catch (const EngineUnavailable& e) {
    result.run = FilterRun{RunStatus::Unavailable, e.what(), {}, {}, {}};
  } catch (const std::exception& e) {
    result.run = FilterRun{RunStatus::Failed, e.what(), {}, {}, {}};
  }
  progress.report(1.0);
  return result;
}

// Values as float64: the span itself, or a widened (exact) copy of float32 ones in `storage`.
std::span<const double> asFloat64(std::span<const double> values, std::vector<double>& /*storage*/) { return values; }
std::span<const double> asFloat64(std::span<const float> values, std::vector<double>& storage) {
  storage.assign(values.begin(), values.end());
  return storage;
}

template <typename Sample>
Comparison runComparisonAs(std::span<FilterBackend* const> backends, std::span<const Sample> in, const FilterSpec& spec,
                           const CompareOptions& options, const ComparisonProgress& progress,
                           const Progress& cancel) {
  validate(spec);
  validate(options.measure);
  Comparison comparison;
  comparison.spec = spec;
  comparison.options = options;
  comparison.samples = in.size();
  comparison.sampleType = std::is_same_v<Sample, float> ? SampleType::f32 : SampleType::f64;

  const std::size_t count = 1 + static_cast<std::size_t>(std::count_if(
      backends.begin(), backends.end(), [](const auto& b) { return b->name() != "cpu-serial"; }));

  // Engine k's share of `cancel`'s progress: [k / count, (k + 1) / count].
  const auto share = [&](std::size_t k) {
    return progressPart(cancel, static_cast<double>(k) / static_cast<double>(count), static_cast<double>(k + 1) / static_cast<double>(count));
  };
  std::vector<Sample> reference(in.size());
  CpuSerialBackend serial;
  BackendResult refResult = runOne(serial, in, spec, options, std::span<Sample>(reference), share(0));
  if (refResult.run.status != RunStatus::Ok) throw std::runtime_error("cpu-serial failed: " + refResult.run.message);
  refResult.agrees = true;
  comparison.results.push_back(std::move(refResult));
  comparison.reference.assign(reference.begin(), reference.end());
  if (progress) progress(1, count);

  std::vector<double> widened;
  const double maxAbsInput = maxAbsInStretches(asFloat64(in, widened), cancel);
  std::vector<Sample> out(in.size());
  for (const auto& backend : backends) {
    if (backend->name() == "cpu-serial") continue;
    BackendResult r = runOne(*backend, in, spec, options, std::span<Sample>(out), share(comparison.results.size()));
    if (r.run.status == RunStatus::Ok) {
      r.agreement = compareInStretches(comparison.reference, asFloat64(std::span<const Sample>(out), widened), cancel);
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

Comparison runComparison(std::span<FilterBackend* const> backends, std::span<const double> in,
                         const FilterSpec& spec, const CompareOptions& options, const ComparisonProgress& progress,
                         const Progress& cancel) {
  return runComparisonAs(backends, in, spec, options, progress, cancel);
}

Comparison runComparison(std::span<FilterBackend* const> backends, std::span<const float> in,
                         const FilterSpec& spec, const CompareOptions& options, const ComparisonProgress& progress,
                         const Progress& cancel) {
  return runComparisonAs(backends, in, spec, options, progress, cancel);
}

namespace {
std::vector<FilterBackend*> refsOf(const BackendList& backends) {
  std::vector<FilterBackend*> refs;
  for (const auto& b : backends) refs.push_back(b.get());
  return refs;
}
}  // namespace

Comparison runComparison(const BackendList& backends, std::span<const double> in, const FilterSpec& spec,
                         const CompareOptions& options, const ComparisonProgress& progress, const Progress& cancel) {
  return runComparisonAs(std::span<FilterBackend* const>(refsOf(backends)), in, spec, options, progress, cancel);
}

Comparison runComparison(const BackendList& backends, std::span<const float> in, const FilterSpec& spec,
                         const CompareOptions& options, const ComparisonProgress& progress, const Progress& cancel) {
  return runComparisonAs(std::span<FilterBackend* const>(refsOf(backends)), in, spec, options, progress, cancel);
}

}  // namespace siglab
