// Whether a chain streams: what keeps a stage in memory, then planStreaming's rule (stream_apply.hpp)
// over every stage's engine.
#include "pipeline_steps.hpp"
#include "siglab/filter_kinds.hpp"

namespace siglab::detail {
namespace {

// Why stage k cannot run block by block in this chain, or empty.
std::string whyNotStreamed(const BoundChain& chain, std::size_t k) {
  const BoundStage& stage = *chain.stages[k];
  const std::string kind(chain.kinds[k]->name());
  const std::string named = chain.size() > 1 ? stageLabel(k + 1, *chain.kinds[k]) : "a " + kind;
  const FilterSpec* spec = stage.filterSpec();
  if (!spec || !stage.historyBefore() || !stage.historyAfter() || spec->kind == FilterKind::Sos) {
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

StreamingPlan planChain(const BoundChain& chain, const BackendList& engines, const PipelineOptions& options,
                       const StreamingCase& io) {
  if (options.streaming == Streaming::never) return {false, "in memory (--stream never)"};
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (std::string why = whyNotStreamed(chain, k); !why.empty()) return {false, std::move(why)};
  }
  std::string inexact;  // the first stage's engine whose rounding depends on where its work is cut
  for (std::size_t k = 0; k < chain.size() && inexact.empty(); ++k) {
    const FilterBackend& engine = *streamEngineOrder(chain, k, engines, options).front().engine;
    const FilterSpec& spec = *chain.stages[k]->filterSpec();
    const double tolerance =
        options.sampleType == SampleType::f32 ? engine.toleranceFloat32(spec, 1.0) : engine.tolerance(spec, 1.0);
    if (tolerance != 0.0) inexact = std::string(engine.name());
  }
  return planStreaming(options.streaming, inexact, options.sampleType, io);
}

}  // namespace siglab::detail
