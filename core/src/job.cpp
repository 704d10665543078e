#include "siglab/job.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <sstream>
#include <type_traits>

#include "siglab/compare.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/large_page_resource.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/sos_verify.hpp"
#include "siglab/work_progress.hpp"
#include "largest_magnitude.hpp"
#include "sections_check.hpp"

namespace siglab {
namespace {

// The random outputs' seed: a run checks the same outputs every time.
constexpr std::uint64_t kVerifySeed = 0x5167AB;

std::vector<std::string> splitList(std::string_view list) {
  std::vector<std::string> names;
  std::stringstream stream{std::string(list)};
  for (std::string name; std::getline(stream, name, ',');) {
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

// The engine `name` of `engines` where it can run `spec` here and its bound is not only norm-wise
// (what auto may take) unless the rule checked that bound for this filter, else nullptr.
FilterBackend* autoUsable(const BackendList& engines, std::string_view name, const FilterSpec& spec, SampleType type,
                          bool boundChecked = false) {
  FilterBackend* engine = findEngine(engines, name);
  if (!engine || !engine->whyNot(spec, type).empty()) return nullptr;
  if (!boundChecked && engine->errorBound(spec, type) == ErrorBound::NormWise) return nullptr;
  return engine;
}

// Samples for the slowest pole to fade to 2^-53 (sosFadeLength), rounded up; UINT64_MAX where it never does.
std::uint64_t fadeSamples(const FilterSpec& spec) {
  const double fade = sosFadeLength(spec.sos.sections);
  return std::isfinite(fade) ? static_cast<std::uint64_t>(std::ceil(fade)) : std::numeric_limits<std::uint64_t>::max();
}

AutoWork autoWorkOf(const FilterSpec& spec) {
  if (spec.kind == FilterKind::Median) return AutoWork::Median;
  if (spec.kind == FilterKind::Sos) return AutoWork::SecondOrderSections;
  return AutoWork::Correlation;
}

// The engines auto would try, best first, each with why it comes there: the auto rule's order, less
// the engines that are missing or cannot run `spec` here.
std::vector<EngineChoice> autoCandidates(const BackendList& engines, const FilterSpec& spec, SampleType type,
                                         std::uint64_t samples) {
  AutoQuestion question;
  question.work = autoWorkOf(spec);
  question.size = question.work == AutoWork::SecondOrderSections ? fadeSamples(spec) : spec.window();
  question.samples = samples;
  const char* gpu = question.work == AutoWork::Median ? "gpu-median" : "gpu-tuned";
  if (question.work != AutoWork::SecondOrderSections && autoUsable(engines, gpu, spec, type)) question.gpuEngine = gpu;
  std::vector<EngineChoice> order;
  for (AutoPick& pick : autoEngineOrder(question)) {
    if (FilterBackend* engine = autoUsable(engines, pick.engine, spec, type, pick.boundChecked)) {
      order.push_back({engine, std::move(pick.why)});
    }
  }
  return order;
}

template <typename Sample>
ApplyResult applyAs(FilterBackend& engine, std::span<const Sample> in, const FilterSpec& spec, const Job& job,
                    const Progress& progress, std::span<Sample> out) {
  ApplyResult result;
  result.engine = std::string(engine.name());
  result.usesGpu = engine.usesGpu();
  // The engine's run is the progress bar; verification, a small share of the time, its last tenth.
  result.pass = engine.filter(in, spec, out, job.run, progressPart(progress, 0.0, job.verify ? 0.9 : 1.0));
  finishEdges(in, spec, out, progress);  // Savitzky-Golay's interp edges: the CPU's, for every engine
  progress.throwIfCancelled();
  if (!job.verify) return result;
  const auto start = std::chrono::steady_clock::now();
  const Progress verifying = progressPart(progress, 0.9, 1.0);
  const auto toleranceFor = [&](double maxAbsInput) {
    return std::is_same_v<Sample, float> ? engine.toleranceFloat32(spec, maxAbsInput)
                                         : engine.tolerance(spec, maxAbsInput);
  };
  if (spec.kind == FilterKind::Sos) {
    const std::vector<OutputStretch> stretches = detail::sectionsCheckStretches(in.size(), spec, result.pass.splits, job);
    const double budgetMs = detail::sectionsCheckBudgetMs(job, result.pass.phases.totalMs);
    result.verification = verifySosStretches(in, spec, std::span<const Sample>(out), stretches, toleranceFor, budgetMs,
                                              verifying);
  } else {
    // Only an inexact engine's tolerance needs the input's magnitude (one O(N) scan, no filtering).
    double tolerance = toleranceFor(1.0);
    if (tolerance != 0.0) tolerance = toleranceFor(detail::largestMagnitude(in, progress).largest);
    const std::vector<std::size_t> positions =
        verificationPositions(in.size(), spec.window(), result.pass.splits, job.verifyRandom, kVerifySeed);
    result.verification = verifyOutputs(in, spec, std::span<const Sample>(out), positions, tolerance, verifying);
  }
  progress.report(1.0);
  result.verifyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace

namespace detail {

std::vector<OutputStretch> sectionsCheckStretches(std::size_t samples, const FilterSpec& spec, const WorkSplits& splits,
                                                  const Job& job) {
  if (job.verifyAll) return {{0, samples}};
  return sosVerificationStretches(samples, spec, splits, job.verifyRandom, kVerifySeed);
}

// By default under a tenth of the filter's own time, or a few milliseconds (the ends always).
double sectionsCheckBudgetMs(const Job& job, double filterMs) {
  if (job.verifyAll) return std::numeric_limits<double>::infinity();
  return std::max(kSosVerifyMinMs, kSosVerifyTimeFraction * filterMs);
}

}  // namespace detail

std::string engineNames(const BackendList& engines) {
  std::string names;
  for (const auto& e : engines) names += (names.empty() ? "" : ", ") + std::string(e->name());
  return names;
}

FilterBackend* findEngine(const BackendList& engines, std::string_view name) {
  for (const auto& e : engines) {
    if (e->name() == name) return e.get();
  }
  return nullptr;
}

std::vector<FilterBackend*> selectEngines(const BackendList& engines, std::string_view list) {
  const std::vector<std::string> names = splitList(list);
  std::vector<FilterBackend*> chosen;
  if (names.size() == 1 && names[0] == "all") {
    for (const auto& e : engines) chosen.push_back(e.get());
    return chosen;
  }
  if (names.empty()) throw JobError("no engine named; known: " + engineNames(engines) + ", all");
  for (const auto& name : names) {
    FilterBackend* engine = findEngine(engines, name);
    if (!engine) throw JobError("unknown engine \"" + name + "\"; known: " + engineNames(engines) + ", all");
    if (std::find(chosen.begin(), chosen.end(), engine) == chosen.end()) chosen.push_back(engine);
  }
  return chosen;
}

EngineChoice chooseAutoEngine(const BackendList& engines, const FilterSpec& spec, SampleType type,
                              std::uint64_t samples) {
  std::vector<EngineChoice> order = autoCandidates(engines, spec, type, samples);
  if (order.empty()) throw JobError("no engine can run a " + std::string(kindName(spec)) + " here");
  return order.front();
}

bool autoScansSections(const FilterSpec& spec) {
  if (spec.kind != FilterKind::Sos) return false;
  AutoQuestion question;
  question.work = AutoWork::SecondOrderSections;
  question.size = fadeSamples(spec);
  return autoEngineOrder(question).front().engine == "cpu-parallel";
}

EngineChoice chooseApplyEngine(const BackendList& engines, const Job& job, std::uint64_t samples) {
  const std::vector<std::string> names = splitList(job.engines);
  if (names.size() == 1 && names[0] == "auto") return chooseAutoEngine(engines, job.spec, job.sampleType, samples);
  if (names.size() != 1 || names[0] == "all") {
    throw JobError("filter applies one engine; to run and compare several use: siglab-cli compare");
  }
  FilterBackend* engine = selectEngines(engines, names[0]).front();
  if (std::string why = engine->whyNot(job.spec, job.sampleType); !why.empty()) {
    throw JobError("engine " + names[0] + " cannot run this filter here: " + why);
  }
  return {engine, "chosen by name"};
}

std::vector<float> narrowToFloat32(std::span<const double> samples, const std::string& path) {
  std::vector<float> narrow(samples.size());
  narrowToFloat32Into(samples, narrow, path, 0);
  return narrow;
}

std::span<const double> samplesAsTyped(std::span<const double> samples, SampleType type, const std::string& path,
                                       std::vector<double>& storage) {
  if (type != SampleType::f32) return samples;
  const std::vector<float> narrow = narrowToFloat32(samples, path);
  storage.assign(narrow.begin(), narrow.end());
  return storage;
}

void narrowToFloat32Into(std::span<const double> samples, std::span<float> out, const std::string& path,
                         std::uint64_t firstIndex) {
  for (std::size_t i = 0; i < samples.size(); ++i) {
    if (!fitsFloat32(samples[i]) && !std::isnan(samples[i])) {
      char value[32];
      std::snprintf(value, sizeof value, "%.6g", samples[i]);
      throw InputError(path, "sample " + std::to_string(firstIndex + i + 1) + " (" + value +
                                 ") is outside the float32 range; use --dtype f64");
    }
    out[i] = static_cast<float>(samples[i]);
  }
}

ApplyResult applyFilterInto(FilterBackend& engine, std::span<const double> samples, std::span<double> out,
                            const Job& job, const Progress& progress) {
  validate(job.spec);
  if (samples.size() != out.size()) throw std::invalid_argument("input and output sizes differ");
  if (job.sampleType == SampleType::f32) {
    const std::vector<float> narrow = narrowToFloat32(samples, job.input);
    const auto narrowOut = std::make_unique_for_overwrite<float[]>(narrow.size());  // the engine writes every output
    ApplyResult result = applyAs<float>(engine, narrow, job.spec, job, progress, std::span<float>(narrowOut.get(), narrow.size()));
    std::copy_n(narrowOut.get(), narrow.size(), out.begin());  // widened exactly
    return result;
  }
  return applyAs<double>(engine, samples, job.spec, job, progress, out);
}

ApplyResult applyFilter(FilterBackend& engine, std::span<const double> samples, const Job& job,
                        const Progress& progress) {
  // The result in the same memory as the samples: page-locked for a GPU engine (ReadOptions::hostMemory);
  // a float32 run's result, widened from its own buffer, in ordinary memory (nullptr: the default).
  std::pmr::memory_resource* memory = job.sampleType == SampleType::f64 ? job.read.hostMemory : nullptr;
  SampleVector out(ForOverwrite{}, samples.size(), memory ? memory : resultMemory());
  ApplyResult result = applyFilterInto(engine, samples, out, job, progress);
  result.output = std::move(out);
  return result;
}

std::vector<EngineChoice> applyEngineOrder(const BackendList& engines, const Job& job, std::uint64_t samples) {
  const EngineChoice named = chooseApplyEngine(engines, job, samples);
  if (job.engines == "auto") return autoCandidates(engines, job.spec, job.sampleType, samples);
  return {named};
}

namespace {

// Runs `attempt(choice)` for each choice in turn until one returns: with `automatic`, an engine
// that fails here (not a cancel, not bad input) gives way to the next, its reason kept.
template <typename Attempt>
void firstThatRuns(const std::vector<EngineChoice>& order, bool automatic, std::vector<std::string>& fellBack,
                   Attempt&& attempt) {
  for (std::size_t k = 0; k < order.size(); ++k) {
    try {
      attempt(order[k]);
      return;
    } catch (const Cancelled&) {
      throw;
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {
      if (!automatic || k + 1 == order.size()) throw;
      fellBack.push_back(std::string(order[k].engine->name()) + ": " + e.what());
    }
  }
  throw JobError("no engine can run this filter here");
}

}  // namespace

AppliedJob applyJob(const BackendList& engines, std::span<const double> samples, const Job& job,
                    const Progress& progress) {
  AppliedJob applied;
  firstThatRuns(applyEngineOrder(engines, job, samples.size()), job.engines == "auto", applied.fellBack, [&](const EngineChoice& c) {
    applied.result = applyFilter(*c.engine, samples, job, progress);
    applied.why = c.why;
  });
  return applied;
}

AppliedJob applyJobInto(const BackendList& engines, std::span<const double> samples, std::span<double> out,
                        const Job& job, const Progress& progress) {
  AppliedJob applied;
  firstThatRuns(applyEngineOrder(engines, job, samples.size()), job.engines == "auto", applied.fellBack, [&](const EngineChoice& c) {
    applied.result = applyFilterInto(*c.engine, samples, out, job, progress);
    applied.why = c.why;
  });
  return applied;
}

Comparison compareEngines(const BackendList& engines, std::span<const double> samples, const Job& job,
                          const ComparisonProgress& onEngineDone, const Progress& progress) {
  const std::vector<FilterBackend*> chosen = selectEngines(engines, job.engines == "auto" ? "all" : job.engines);
  CompareOptions options{job.run, job.measure};
  if (job.sampleType == SampleType::f32) {
    const std::vector<float> narrow = narrowToFloat32(samples, job.input);
    return runComparison(std::span<FilterBackend* const>(chosen), narrow, job.spec, options, onEngineDone, progress);
  }
  return runComparison(std::span<FilterBackend* const>(chosen), samples, job.spec, options, onEngineDone, progress);
}

}  // namespace siglab
