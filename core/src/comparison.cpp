#include "siglab/comparison.hpp"

#include <algorithm>
#include <exception>
#include <limits>

#include "siglab/cpu_serial.hpp"

namespace siglab {
namespace {

BackendResult runOne(FilterBackend& backend, std::span<const double> in, const FilterSpec& spec,
                     const RunOptions& options, std::span<double> out) {
  BackendResult result;
  result.name = std::string(backend.name());
  result.description = std::string(backend.description());
  if (std::string reason = backend.unavailableReason(); !reason.empty()) {
    result.run.status = RunStatus::Unavailable;
    result.run.message = std::move(reason);
    return result;
  }
  std::fill(out.begin(), out.end(), std::numeric_limits<double>::quiet_NaN());  // poison: unwritten shows
  try {
    result.run = backend.run(in, spec, out, options);
  } catch (const std::exception& e) {
    result.run.status = RunStatus::Failed;
    result.run.message = e.what();
  }
  return result;
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

double Comparison::kernelSpeedup(const BackendResult& r) const {
  const BackendResult* ref = find("cpu-serial");
  if (!ref || r.run.status != RunStatus::Ok || r.run.kernel.medianMs <= 0.0) return 0.0;
  return ref->run.kernel.medianMs / r.run.kernel.medianMs;
}

double Comparison::endToEndSpeedup(const BackendResult& r) const {
  const BackendResult* ref = find("cpu-serial");
  if (!ref || r.run.status != RunStatus::Ok || r.run.total.medianMs <= 0.0) return 0.0;
  return ref->run.total.medianMs / r.run.total.medianMs;
}

Comparison runComparison(const BackendList& backends, std::span<const double> in, const FilterSpec& spec,
                         const RunOptions& options, const ComparisonProgress& progress) {
  validate(spec);
  Comparison comparison;
  comparison.spec = spec;
  comparison.options = options;
  comparison.samples = in.size();
  comparison.reference.resize(in.size());

  const std::size_t count = 1 + static_cast<std::size_t>(std::count_if(
      backends.begin(), backends.end(), [](const auto& b) { return b->name() != "cpu-serial"; }));

  CpuSerialBackend reference;
  BackendResult refResult = runOne(reference, in, spec, options, comparison.reference);
  if (refResult.run.status != RunStatus::Ok) throw std::runtime_error("cpu-serial failed: " + refResult.run.message);
  refResult.agrees = true;
  comparison.results.push_back(std::move(refResult));
  if (progress) progress(1, count);

  std::vector<double> out(in.size());
  for (const auto& backend : backends) {
    if (backend->name() == "cpu-serial") continue;
    BackendResult r = runOne(*backend, in, spec, options, out);
    if (r.run.status == RunStatus::Ok) {
      r.agreement = compareResults(comparison.reference, out);
      r.tolerance = backend->tolerance(spec, maxAbs(in));
      r.agrees = r.tolerance == 0.0 ? r.agreement.bitIdentical() : r.agreement.maxAbsDiff <= r.tolerance;
    }
    comparison.results.push_back(std::move(r));
    if (progress) progress(comparison.results.size(), count);
  }
  return comparison;
}

}  // namespace siglab
