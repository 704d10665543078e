#include "kept_sections.hpp"

#include <algorithm>
#include <chrono>
#include <vector>

#include "cpu_engine.hpp"
#include "sections_check.hpp"
#include "siglab/io/sample_vector.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/work_progress.hpp"
#include "sos_segment_scan.hpp"

namespace siglab::detail {

bool keepsAsItScans(const FilterBackend& engine, const Job& job) {
  return engine.name() == "cpu-parallel" && job.spec.kind == FilterKind::Sos && !job.spec.sos.zeroPhase &&
         job.sampleType == SampleType::f64 && !job.verifyAll;
}

ApplyResult applySectionsKeeping(FilterBackend& engine, std::span<const double> in, std::span<double> out,
                                 std::uint64_t q, const Job& job, const Progress& progress) {
  const Sections& sections = job.spec.sos.sections;
  const std::size_t n = in.size();
  ApplyResult result;
  result.engine = std::string(engine.name());
  WorkSplits splits;
  splits.at = sosScanCuts(sections, n, false);
  const std::vector<OutputStretch> stretches =
      job.verify ? sectionsCheckStretches(n, job.spec, splits, job) : std::vector<OutputStretch>{};
  std::vector<IndexRange> whole;
  for (const OutputStretch s : stretches) whole.push_back({static_cast<std::int64_t>(s.begin), static_cast<std::int64_t>(s.end)});
  std::sort(whole.begin(), whole.end(), [](IndexRange a, IndexRange b) { return a.begin < b.begin; });
  // Ordinary pages, never touched outside the stretches (a large page would clear 2 MiB for each).
  SampleVector full(ForOverwrite{}, job.verify ? n : 0);
  const ScanKeep keep{q, 0, out.data(), whole};
  const SosGains gains = sosGains(sections);
  const Progress filtering = progressPart(progress, 0.0, job.verify ? 0.9 : 1.0);
  result.pass = timedCpuPass(splits, [&] {
    WorkProgress work(filtering, n);
    ScanCarry carry{SosState(2 * sections.size(), 0.0), true, 0.0, 0.0};
    sosScanPiece(sections, gains, in.data(), full.data(), static_cast<std::int64_t>(n), 1, carry, work, &keep);
  });
  progress.throwIfCancelled();
  if (!job.verify) return result;
  const auto start = std::chrono::steady_clock::now();
  const auto toleranceFor = [&](double maxAbsInput) { return engine.tolerance(job.spec, maxAbsInput); };
  result.verification = verifySosStretches(in, job.spec, std::span<const double>(full), stretches, toleranceFor,
                                           sectionsCheckBudgetMs(job, result.pass.phases.totalMs),
                                           progressPart(progress, 0.9, 1.0));
  progress.report(1.0);
  result.verifyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace siglab::detail
