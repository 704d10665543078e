#include "siglab/stage_engine_rule.hpp"

#include <stdexcept>
#include <utility>

namespace siglab {

AutoWork autoWorkOf(GpuStageWork work) {
  switch (work) {
    case GpuStageWork::RateChange: return AutoWork::RateChange;
    case GpuStageWork::Spectrogram: return AutoWork::Spectrogram;
    case GpuStageWork::FindPeaks: return AutoWork::FindPeaks;
    case GpuStageWork::Hilbert: return AutoWork::Hilbert;
  }
  return AutoWork::RateChange;
}

StageEngineAnswer chooseStageEngine(const StageEngineQuestion& q) {
  AutoPick pick = autoEngineOrder({autoWorkOf(q.work), q.samples, q.gpuEngine, q.gpuWhyNot, q.streamed}).front();
  return {std::move(pick.engine), std::move(pick.why)};
}

std::optional<std::string> whyNotStage(const FilterBackend& engine, GpuStageWork work, const PeakOptions* peaks) {
  std::string why, never;
  switch (work) {
    case GpuStageWork::RateChange:
      why = engine.whyNotPolyphase();
      never = engine.FilterBackend::whyNotPolyphase();
      break;
    case GpuStageWork::Spectrogram:
      why = engine.whyNotSpectrogram();
      never = engine.FilterBackend::whyNotSpectrogram();
      break;
    case GpuStageWork::Hilbert:
      why = engine.whyNotHilbert();
      never = engine.FilterBackend::whyNotHilbert();
      break;
    case GpuStageWork::FindPeaks:
      if (peaks == nullptr) throw std::logic_error("whyNotStage: find-peaks without its options");
      why = engine.whyNotFindPeaks(*peaks);
      never = engine.FilterBackend::whyNotFindPeaks(*peaks);
      break;
  }
  if (why == never) return std::nullopt;
  return why;
}

StageEngineQuestion stageEngineQuestion(GpuStageWork work, std::uint64_t samples, const BackendList& engines,
                                        const PeakOptions* peaks) {
  StageEngineQuestion q;
  q.work = work;
  q.samples = samples;
  for (const auto& engine : engines) {
    if (!engine->usesGpu()) continue;
    const std::optional<std::string> why = whyNotStage(*engine, work, peaks);
    if (!why) continue;
    if (why->empty()) {
      q.gpuEngine = std::string(engine->name());
      return q;
    }
    if (q.gpuWhyNot.empty()) q.gpuWhyNot = std::string(engine->name()) + ": " + *why;
  }
  return q;
}

std::vector<std::string> stageEngineNames(std::vector<std::string> cpuNames, GpuStageWork work, const BackendList& engines,
                                          const PeakOptions* peaks) {
  for (const auto& engine : engines) {
    const std::optional<std::string> why = whyNotStage(*engine, work, peaks);
    if (why && why->empty()) cpuNames.emplace_back(engine->name());
  }
  return cpuNames;
}

std::string stageEngineFor(const std::string& named, GpuStageWork work, std::uint64_t samples, const BackendList& engines,
                           std::string& why) {
  if (named != "auto") return named;
  StageEngineAnswer chosen = chooseStageEngine(stageEngineQuestion(work, samples, engines));
  why = std::move(chosen.why);
  return chosen.engine;
}

}  // namespace siglab
