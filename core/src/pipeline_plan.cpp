// Whether a chain streams: what keeps a stage in memory, then planStreaming's rule (stream_apply.hpp)
// over every stage's engine.
#include "pipeline_steps.hpp"
#include "siglab/filter_kinds.hpp"

namespace siglab::detail {
namespace {

// Why stage k cannot run block by block in this chain, or empty.
std::string whyNotStreamed(const BoundChain& chain, std::size_t k, const BackendList& engines) {
  const BoundStage& stage = *chain.stages[k];
  const std::string kind(chain.kinds[k]->name());
  const std::string named = chain.size() > 1 ? stageLabel(k + 1, *chain.kinds[k]) : "a " + kind;
  const FilterSpec* spec = stage.filterSpec();
  if (streamsItself(chain, k) && chain.engines[k] != "auto" && chain.engines[k] != kSectionsStreamEngine &&
      !streamedGpuEngine(chain, k, engines)) {
    return "in memory: " + named + " names engine " + chain.engines[k] + ", and it streams only on " +
           std::string(kSectionsStreamEngine) + " (the reference, its history carried from block to block)";
  }
  if (streamsItself(chain, k)) return {};  // a rate change: its own stream, its history carried
  if (streamsSections(chain, k) && chain.engines[k] != "auto" && chain.engines[k] != kSectionsStreamEngine) {
    return "in memory: " + named + " names engine " + chain.engines[k] + ", and sections stream only on " +
           std::string(kSectionsStreamEngine) + " (the recursion carried from block to block)";
  }
  if (!spec || ((!stage.historyBefore() || !stage.historyAfter()) && !stage.streamsWithoutHistory())) {
    return "in memory: " + named + "'s outputs depend on the whole signal (no finite history), so it does not "
           "stream block by block";
  }
  if (k > 0 && spec->kind == FilterKind::SavitzkyGolay && spec->savgol.interp) {
    return "in memory: " + named + "'s interp edges fit the first and last W samples of its whole input: only a "
           "first stage can read them ahead (another boundary mode streams)";
  }
  if (k > 0 && spec->mode == BoundaryMode::Wrap) {
    return "in memory: " + named + " wraps around, which needs the far end of its input before the start: only "
           "a first stage can read it ahead";
  }
  return {};
}

}  // namespace

FilterBackend* streamedGpuEngine(const BoundChain& chain, std::size_t k, const BackendList& engines) {
  const std::optional<GpuStageWork> work = chain.stages[k]->streamedGpuWork();
  if (!work || !streamsItself(chain, k)) return nullptr;
  FilterBackend* named = findEngine(engines, chain.engines[k]);
  if (!named || !named->usesGpu()) return nullptr;
  const std::optional<std::string> why = whyNotStage(*named, *work);
  return why && why->empty() ? named : nullptr;
}

StreamingPlan planChain(const BoundChain& chain, const BackendList& engines, const PipelineOptions& options,
                       const StreamingCase& io) {
  if (options.streaming == Streaming::never) return {false, "in memory (--stream never)"};
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (std::string why = whyNotStreamed(chain, k, engines); !why.empty()) return {false, std::move(why)};
  }
  std::string inexact;  // the first stage's engine whose rounding depends on where its work is cut
  std::string sections;  // what the streamed sections stages do, for the why-line
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (!streamsSections(chain, k)) continue;
    const std::string named =
        chain.size() > 1 ? stageLabel(k + 1, *chain.kinds[k]) : "the " + std::string(chain.kinds[k]->name()) + " stage";
    sections += "; " + named + (chain.stages[k]->filterSpec()->sos.zeroPhase
                                    ? " streams serially (unbounded history): the forward pass block by block into a "
                                      "temporary file, the backward pass back from it"
                                    : " streams serially (unbounded history), its state carried from block to block");
  }
  for (std::size_t k = 0; k < chain.size() && inexact.empty(); ++k) {
    if (streamsItself(chain, k) && !chain.stages[k]->streamedBound().empty()) {
      inexact = "the " + std::string(chain.kinds[k]->name()) + " stage";
      continue;
    }
    if (streamsSections(chain, k) || streamsItself(chain, k)) continue;  // streamed, sections run serially: the reference itself
    const FilterBackend& engine = *streamEngineOrder(chain, k, engines, options).front().engine;
    const FilterSpec& spec = *chain.stages[k]->filterSpec();
    const double tolerance =
        options.sampleType == SampleType::f32 ? engine.toleranceFloat32(spec, 1.0) : engine.tolerance(spec, 1.0);
    if (tolerance != 0.0) inexact = std::string(engine.name());
  }
  StreamingPlan plan = planStreaming(options.streaming, inexact, options.sampleType, io);
  // Streamed, sections run the reference recursion with no separate check; in memory an engine's
  // result is checked against serial passes. Auto keeps that check wherever the signal fits.
  if (plan.stream && !sections.empty() && options.streaming == Streaming::automatic &&
      !planStreaming(options.streaming, "sections", options.sampleType, io).stream) {
    return {false, "in memory, where its sections are checked against serial passes of the reference (--stream "
                   "always streams them serially, the reference itself, unchecked)"};
  }
  if (plan.stream) plan.why += sections;
  return plan;
}

}  // namespace siglab::detail
