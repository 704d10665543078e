// compare's core: a stage's engines from the bound stage, and a chain's stages one after another.
#include "siglab/stage_comparison.hpp"

#include <algorithm>
#include <exception>

#include "siglab/errors.hpp"
#include "siglab/job.hpp"
#include "siglab/measure.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {
namespace {

constexpr std::string_view kReference = "cpu-serial";

Comparison compareFilter(const FilterSpec& spec, const BackendList& engines, std::span<const double> in,
                         const StageCompareOptions& o, const ComparisonProgress& onEngineDone, const Progress& progress) {
  const std::vector<FilterBackend*> chosen = selectEngines(engines, o.engines);
  const std::span<FilterBackend* const> list(chosen);
  if (o.sampleType == SampleType::f32) {
    const std::vector<float> narrow = narrowToFloat32(in, o.name);
    return runComparison(list, std::span<const float>(narrow), spec, o.compare, onEngineDone, progress);
  }
  return runComparison(list, in, spec, o.compare, onEngineDone, progress);
}

// One engine of a stage that is not a filter, measured through its apply (unverified: the
// comparison is the check). `out` receives its result.
BackendResult measureStageEngine(const BoundStage& stage, const BackendList& engines, const std::string& name,
                                 std::span<const double> in, const StageCompareOptions& o, SampleVector& out,
                                 const Progress& progress) {
  BackendResult result;
  result.name = name;
  if (const FilterBackend* engine = findEngine(engines, name)) {
    result.description = std::string(engine->description());
    result.usesGpu = engine->usesGpu();
  }
  StageRunOptions run;
  run.engine = name;
  run.sampleType = o.sampleType;
  run.run = o.compare.run;
  run.verify = false;
  run.pathForMessages = o.name;
  try {
    const double executions = std::max(0, o.compare.measure.warmups) + std::max(1, o.compare.measure.repeats);
    int execution = 0;
    const PhaseStats stats = measure(
        [&] {
          const Progress once = progressPart(progress, execution / executions, (execution + 1) / executions);
          ++execution;
          AppliedJob applied = stage.apply(engines, in, run, once);
          out = std::move(applied.result.output);
          result.run.message = std::move(applied.result.pass.note);
          return applied.result.pass.phases;
        },
        o.compare.measure, progress);
    result.run.kernel = stats.kernel;
    result.run.transfer = stats.transfer;
    result.run.total = stats.total;
  } catch (const Cancelled&) {
    throw;
  } catch (const StageError& e) {
    result.run = FilterRun{RunStatus::Unavailable, e.what(), {}, {}, {}};
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    result.run = FilterRun{RunStatus::Failed, e.what(), {}, {}, {}};
  }
  progress.report(1.0);
  return result;
}

// A stage with engines of its own (detrend): cpu-serial first as the reference, then each other
// engine asked for, bit for bit against it (the stage's engines promise the same bits).
Comparison compareOwnEngines(const BoundStage& stage, const BackendList& engines, std::span<const double> in,
                             const StageCompareOptions& o, const ComparisonProgress& onEngineDone,
                             const Progress& progress) {
  validate(o.compare.measure);
  const std::vector<std::string> own = stage.engineNames(engines);
  std::vector<std::string> names;
  if (o.engines == "all" || o.engines == "auto") {
    names = own;
  } else {
    for (const FilterBackend* engine : selectEngines(engines, o.engines)) names.emplace_back(engine->name());
  }
  if (std::find(own.begin(), own.end(), kReference) == own.end()) {
    throw StageError(stage.describe() + " has no cpu-serial reference to compare its engines with");
  }
  names.erase(std::remove(names.begin(), names.end(), kReference), names.end());
  names.insert(names.begin(), std::string(kReference));
  Comparison c;
  c.stageDescription = stage.describe();
  c.stageKind = c.stageDescription.substr(0, c.stageDescription.find(' '));
  c.options = o.compare;
  c.samples = in.size();
  c.sampleType = o.sampleType;
  const auto share = [&](std::size_t k) {
    return progressPart(progress, static_cast<double>(k) / static_cast<double>(names.size()),
                        static_cast<double>(k + 1) / static_cast<double>(names.size()));
  };
  SampleVector out;
  for (const std::string& name : names) {
    BackendResult r = measureStageEngine(stage, engines, name, in, o, out, share(c.results.size()));
    if (c.results.empty()) {
      if (r.run.status != RunStatus::Ok) throw std::runtime_error("cpu-serial failed: " + r.run.message);
      c.reference.assign(out.begin(), out.end());
      r.agrees = true;
    } else if (r.run.status == RunStatus::Ok) {
      r.agreement = compareResults(c.reference, std::span<const double>(out.data(), out.size()));
      r.agrees = r.agreement.bitIdentical();
    }
    c.results.push_back(std::move(r));
    if (onEngineDone) onEngineDone(c.results.size(), names.size());
  }
  return c;
}

}  // namespace

Comparison compareStage(const BoundStage& stage, const BackendList& engines, std::span<const double> in,
                        const StageCompareOptions& options, const ComparisonProgress& onEngineDone,
                        const Progress& progress) {
  if (const FilterSpec* spec = stage.filterSpec()) return compareFilter(*spec, engines, in, options, onEngineDone, progress);
  return compareOwnEngines(stage, engines, in, options, onEngineDone, progress);
}

bool ChainComparison::allAgree() const {
  return std::all_of(stages.begin(), stages.end(), [](const StageComparison& s) { return s.comparison.allAgree(); });
}

ChainComparison compareChain(const Pipeline& pipeline, std::span<const double> in, std::optional<double> sampleRate,
                             const BackendList& engines, const StageCompareOptions& options,
                             const std::function<void(std::size_t stage)>& onStage, const Progress& progress) {
  if (pipeline.stages.empty()) throw StageError("the pipeline has no stage");
  const StageContext context{in.size(), sampleRate, options.accumulator};
  std::vector<std::unique_ptr<BoundStage>> bound;
  const std::size_t count = pipeline.stages.size();
  for (std::size_t k = 0; k < count; ++k) {  // one stage's messages are named by the front-end, as filter's
    const Stage& stage = pipeline.stages[k];
    bound.push_back(count > 1 ? bindStage(stage, k + 1, context) : stage.kind->bind(stage.values, context));
  }
  ChainComparison chain;
  std::vector<SampleVector> previous;  // the last stage's auto output, the next stage's input
  std::span<const double> input = in;
  for (std::size_t k = 0; k < count; ++k) {
    if (onStage) onStage(k);
    const Stage& stage = pipeline.stages[k];
    const Progress part = progressPart(progress, static_cast<double>(k) / static_cast<double>(count),
                                       static_cast<double>(k + 1) / static_cast<double>(count));
    StageComparison s;
    s.label = stageLabel(k + 1, *stage.kind);
    s.chain = chainText(Pipeline{{stage}});
    s.note = bound[k]->note();
    try {
      s.comparison = compareStage(*bound[k], engines, input, options, {}, part);
    } catch (const StageError& e) {
      throw StageError(count > 1 ? s.label + ": " + e.what() : std::string(e.what()));
    }
    chain.stages.push_back(std::move(s));
    if (k + 1 == count) break;
    PipelineOptions run;
    run.sampleType = options.sampleType;
    run.accumulator = options.accumulator;
    run.run = options.compare.run;
    run.streaming = Streaming::never;
    PipelineObserver observer;
    observer.cancel = progress.cancelFlag;
    PipelineReport report = runPipeline(Pipeline{{stage}}, ChannelSource{{input}, sampleRate, options.name},
                                        MemorySink{}, engines, run, observer);
    if (!report.passed()) {
      throw std::runtime_error(chain.stages.back().label + ": " + report.firstFailure()->engine +
                               "'s result failed verification; the next stages were not compared");
    }
    previous = std::move(report.output);
    input = std::span<const double>(previous.front().data(), previous.front().size());
  }
  return chain;
}

}  // namespace siglab
