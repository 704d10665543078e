#include "siglab/stage_engine_rule.hpp"

#include <stdexcept>

namespace siglab {
namespace {

const char* workName(GpuStageWork work) {
  switch (work) {
    case GpuStageWork::RateChange: return "a rate change";
    case GpuStageWork::Spectrogram: return "a spectrogram";
    case GpuStageWork::FindPeaks: return "find-peaks";
    case GpuStageWork::Hilbert: return "a Hilbert transform";
  }
  return "a stage";
}

// Why the CPU engine is the same (or as good) as the GPU's, for the report.
const char* cpuSameness(GpuStageWork work) {
  if (work == GpuStageWork::Spectrogram) return "FFTW's frames, each alone";
  if (work == GpuStageWork::Hilbert) return "FFTW's threads (the last bits may differ from cpu-serial's)";
  return "the same bits as cpu-serial";
}

}  // namespace

StageEngineAnswer chooseStageEngine(const StageEngineQuestion& q) {
  const std::string what = workName(q.work);
  const std::string cpu = std::string("cpu-parallel, ") + cpuSameness(q.work);
  if (q.gpuEngine.empty()) {
    return {"cpu-parallel", "auto: " + cpu + " (no GPU engine runs " + what + " here" +
                                (q.gpuWhyNot.empty() ? "" : ": " + q.gpuWhyNot) + ")"};
  }
  if (q.work == GpuStageWork::FindPeaks && q.streamed) {
    return {"cpu-parallel", "auto: " + cpu + " (the run streams, and " + q.gpuEngine +
                                " finds peaks on the whole signal at once)"};
  }
  if (q.samples < kGpuStageMinSamples) {
    return {"cpu-parallel", "auto: " + cpu + " (" + std::to_string(q.samples) + " samples < " +
                                std::to_string(kGpuStageMinSamples) +
                                ": the CPU's pass is shorter than the GPU's copies)"};
  }
  const std::string same = q.work == GpuStageWork::Spectrogram ? "cuFFT's frames, within an FFT's rounding of the CPU's"
                           : q.work == GpuStageWork::Hilbert   ? "cuFFT's transform, within an FFT's rounding of the CPU's"
                               : "the same " + std::string(q.work == GpuStageWork::FindPeaks ? "rows" : "bits") +
                                     " as cpu-serial";
  return {q.gpuEngine, "auto: " + q.gpuEngine + ", " + same + " (" + std::to_string(q.samples) + " samples >= " +
                           std::to_string(kGpuStageMinSamples) + ": the GPU's time is its transfers)"};
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
