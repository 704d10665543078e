#pragma once
// Auto's choice between the CPU and the GPU for the stages whose GPU engine is not a filter kind's:
// the rate changes, spectrogram / stft, find-peaks, hilbert and envelope. The choice is the auto
// rule's (auto_engine_rule.hpp, the filter kinds' too); here, what the engine list says (which GPU
// engine runs the stage here, or why none does) is put to it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "siglab/auto_engine_rule.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab {

// The stages with a GPU engine of their own (FilterBackend's polyphase, spectrogram, findPeaks,
// hilbert: the hilbert and envelope stages).
enum class GpuStageWork { RateChange, Spectrogram, FindPeaks, Hilbert };

struct StageEngineQuestion {
  GpuStageWork work = GpuStageWork::RateChange;
  std::uint64_t samples = 0;   // the stage's input, samples a channel
  std::string gpuEngine;       // the list's engine that runs this stage here, or empty
  std::string gpuWhyNot;       // why none does, when gpuEngine is empty
  bool streamed = false;       // the run goes block by block
};

struct StageEngineAnswer {
  std::string engine;  // "cpu-parallel" or gpuEngine
  std::string why;     // "auto: ...", for the report
};

// The auto rule's pick (autoEngineOrder) for the stage: the GPU engine where one runs the stage
// here, the signal has at least kGpuStageMinSamples a channel, and (find-peaks) the run holds the
// whole signal in memory, since the GPU's find-peaks takes it at once; else cpu-parallel, with the
// reason. Every GPU engine it picks gives cpu-serial's bits (rate changes, find-peaks) or, for
// spectrogram frames, an FFT's rounding as the CPU's own FFT does (spectrogramAgreementBound, the
// envelope's 16 eps (log2 n + 1) ||x||_2).
StageEngineAnswer chooseStageEngine(const StageEngineQuestion& question);

// The auto rule's work for a stage's GPU work.
AutoWork autoWorkOf(GpuStageWork work);

// Why `engine` cannot run `work` here (empty: it can), or nullopt where it never runs that work
// (its FilterBackend hook is the base's). `peaks`: find-peaks' options (required for FindPeaks).
std::optional<std::string> whyNotStage(const FilterBackend& engine, GpuStageWork work, const PeakOptions* peaks = nullptr);

// The question for `engines`: the first GPU engine that runs `work` here (gpuEngine), else the
// reason of the first that runs it elsewhere (gpuWhyNot: no GPU, no CUDA, options it refuses).
StageEngineQuestion stageEngineQuestion(GpuStageWork work, std::uint64_t samples, const BackendList& engines,
                                        const PeakOptions* peaks = nullptr);

// A stage's engine list: `cpuNames`, then every engine of `engines` that runs `work` here.
std::vector<std::string> stageEngineNames(std::vector<std::string> cpuNames, GpuStageWork work, const BackendList& engines,
                                          const PeakOptions* peaks = nullptr);

// The engine a stage runs on: `named`, or for "auto" the rule's choice for `samples` a channel, its
// reason put in `why`.
std::string stageEngineFor(const std::string& named, GpuStageWork work, std::uint64_t samples, const BackendList& engines,
                           std::string& why);

}  // namespace siglab
