// Binding a pipeline's stages to one signal, before any work: each stage that cannot run on the
// signal, or on the engine named for it, is refused here, named.
#include <algorithm>

#include "pipeline_steps.hpp"
#include "rate_change.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"

namespace siglab::detail {

std::string BoundChain::prefix(std::size_t k) const {
  if (kinds.size() <= 1) return {};
  return stageLabel(k + 1, *kinds[k]) + ": ";
}

std::vector<EngineChoice> streamEngineOrder(const BoundChain& chain, std::size_t k, const BackendList& engines,
                                            const PipelineOptions& options) {
  const FilterSpec* spec = chain.stages[k]->filterSpec();
  if (!spec) return {};
  try {
    // A filter's output is as long as its input: the samples it reads, where binding knew them.
    return applyEngineOrder(engines, jobOfStage(*spec, stageRunOptions(chain, k, options, {})), chain.outputs[k].value_or(kNoLimit));
  } catch (const JobError& e) {
    throw StageError(chain.prefix(k) + e.what());
  }
}

bool streamsItself(const BoundChain& chain, std::size_t k) { return chain.stages[k]->streamsItself(); }

bool streamsSections(const BoundChain& chain, std::size_t k) {
  const FilterSpec* spec = chain.stages[k]->filterSpec();
  return spec && spec->kind == FilterKind::Sos && chain.stages[k]->streamsWithoutHistory();
}

BoundChain bindChain(const Pipeline& pipeline, const StageContext& context, const PipelineOptions& options,
                     const BackendList& engines) {
  if (pipeline.stages.empty()) throw StageError("the pipeline has no stage");
  BoundChain chain;
  for (std::size_t k = 0; k < pipeline.stages.size(); ++k) {
    const Stage& stage = pipeline.stages[k];
    chain.kinds.push_back(stage.kind);
    chain.engines.push_back(k < options.engines.size() && !options.engines[k].empty() ? options.engines[k] : "auto");
  }
  // A chain's refusals name the stage (bindStage); one stage's are its kind's own, which a front-end
  // names by its option ("--median W must be ...").
  StageContext at = context;  // stage k's input: the signal, then each rate change's output
  for (std::size_t k = 0; k < pipeline.stages.size(); ++k) {
    const Stage& stage = pipeline.stages[k];
    chain.stages.push_back(pipeline.stages.size() > 1 ? bindStage(stage, k + 1, at)
                                                      : stage.kind->bind(stage.values, at));
    at = rateChangedContext(*chain.stages[k], at, chain.prefix(k));
    chain.outputs.push_back(at.samples);
    chain.rates.push_back(at.sampleRate);
  }
  // An engine that does not exist, or cannot run its stage, is a usage error before any work.
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (chain.stages[k]->filterSpec()) {
      streamEngineOrder(chain, k, engines, options);
      continue;
    }
    const std::vector<std::string> names = chain.stages[k]->engineNames(engines);
    if (chain.engines[k] != "auto" && std::find(names.begin(), names.end(), chain.engines[k]) == names.end()) {
      throw StageError(chain.prefix(k) + "engine " + chain.engines[k] + " cannot run a " +
                       std::string(chain.kinds[k]->name()) + "; it runs on: " + [&] {
                         std::string list;
                         for (const std::string& name : names) list += (list.empty() ? "" : ", ") + name;
                         return list;
                       }());
    }
  }
  return chain;
}

StageReport stageReportOf(const BoundChain& chain, std::size_t k) {
  const BoundStage& stage = *chain.stages[k];
  StageReport report;
  report.kind = std::string(chain.kinds[k]->name());
  report.description = stage.describe();
  report.note = stage.note();
  if (const FilterSpec* spec = stage.filterSpec()) {
    report.window = spec->window();
    report.recursive = spec->kind == FilterKind::Sos;
    report.correlation = spec->kind == FilterKind::Correlation;
  }
  return report;
}

}  // namespace siglab::detail
