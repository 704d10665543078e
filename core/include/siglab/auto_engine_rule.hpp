#pragma once
// The auto rule: which engine "auto" runs, for every filter kind (job.hpp's chooseAutoEngine, behind
// every apply, chain and pipeline) and every stage with a GPU engine of its own (stage_engine_rule.hpp's
// chooseStageEngine), in one function and one table. The caller says which GPU engine can run the
// work here, so the rule is tested without a GPU.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace siglab {

/// The work auto chooses an engine for.
enum class AutoWork {
  Correlation,  // a correlation or Savitzky-Golay filter: size in taps
  Median,       // a median filter
  SecondOrderSections,  // sosfilt, sosfiltfilt
  RateChange,   // the stages' own GPU work (GpuStageWork): size in samples a channel
  Spectrogram,
  FindPeaks,
  Hilbert,
};

// The table: which sizes of a work admit an engine faster than the exact CPU ones. Why each, as
// measured on the H100 host SigLab was tuned on (README, "Choosing an engine"):
//  - Correlation from kGpuMinWindow taps, the GPU's (gpu-tuned): its end-to-end time is bound by
//    its transfers (5.8 ms at 10M float64) while cpu-parallel's grows with W (1.1 ms at W = 5 on
//    the host's 16 cores, about 0.06 ms more a tap);
//  - Median from any window, the GPU's (gpu-median): the GPU selects every window in parallel where
//    the CPU slides one sorted window a core, bit-identical either way;
//  - the stages' work from kGpuStageMinSamples a channel, the GPU's: below it the CPU's pass is
//    shorter than the GPU's copies and launches (a 1M-sample rate change or spectrogram takes about
//    a millisecond on 16 cores, the copies alone 0.6 ms); from it on the GPU's time is its transfers;
//  - SecondOrderSections up to kSosScanDefaultFade samples of fade (sosFadeLength: the slowest pole
//    down to 2^-53), cpu-parallel's block scan: its carried state then shows only just past a cut
//    and fades as the recursion's own, within its stated bound (sosKindTolerance); the limit is a
//    sixteenth of the scan's shortest block. gpu-sos-scan, bounded only relative to the signal's
//    peak, is never auto's.
inline constexpr std::size_t kGpuMinWindow = 101;
inline constexpr std::uint64_t kGpuStageMinSamples = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kSosScanDefaultFade = 4096;

/// One row of the auto rule's table.
struct AutoThreshold {
  AutoWork work;
  bool gpu;            // admits the GPU engine that runs the work here; false: cpu-parallel's block scan
  std::uint64_t least; // the sizes that admit it: taps, samples a channel, or samples of fade
  std::uint64_t most;
};
inline constexpr std::uint64_t kNoLimit = UINT64_MAX;
inline constexpr AutoThreshold kAutoThresholds[] = {
    {AutoWork::Correlation, true, kGpuMinWindow, kNoLimit},
    {AutoWork::Median, true, 0, kNoLimit},
    {AutoWork::SecondOrderSections, false, 0, kSosScanDefaultFade},
    {AutoWork::RateChange, true, kGpuStageMinSamples, kNoLimit},
    {AutoWork::Spectrogram, true, kGpuStageMinSamples, kNoLimit},
    {AutoWork::FindPeaks, true, kGpuStageMinSamples, kNoLimit},
    {AutoWork::Hilbert, true, kGpuStageMinSamples, kNoLimit},
};

/// What auto is asked.
struct AutoQuestion {
  AutoWork work = AutoWork::Correlation;
  std::uint64_t size = 0;  // taps (Correlation, Median), samples of fade (SecondOrderSections; UINT64_MAX:
                           // never), or samples a channel (a stage's work)
  std::string gpuEngine;   // the GPU engine that runs the work here (a filter's: exact or bounded per output), or empty
  std::string gpuWhyNot;   // why none does, when gpuEngine is empty
  bool streamed = false;   // the run goes block by block (find-peaks' GPU engine takes the whole signal)
};

/// An engine auto may run, and why it comes there.
struct AutoPick {
  std::string engine;
  std::string why;
  bool boundChecked = false;  // bounded only norm-wise, but the rule checked that bound for this work
};

// The engines auto tries for `question`, best first, each with why: the engine the table's row
// admits at this size, then cpu-parallel; for a filter kind last cpu-serial (the reference), a
// stage's work stopping at its first pick. A caller passes over an engine it lacks or that refuses
// the run.
std::vector<AutoPick> autoEngineOrder(const AutoQuestion& question);

// The table's row for `work` (every work has one).
const AutoThreshold& autoThreshold(AutoWork work);

// Whether `row` admits its engine at `size`.
inline bool admits(const AutoThreshold& row, std::uint64_t size) { return size >= row.least && size <= row.most; }

}  // namespace siglab
