#pragma once
// The auto rule: which engine "auto" runs, for every filter kind (job.hpp's chooseAutoEngine, behind
// every apply, chain and pipeline), every stage with a GPU engine of its own (stage_engine_rule.hpp's
// chooseStageEngine), Welch's spectrum (welch_engine.hpp's chooseWelchEngine) and correlate's FFT
// (correlate_stage.cpp), in one function and one table. The caller says which GPU engine can run the
// work here, so the rule is tested without a GPU.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace siglab {

/// The work auto chooses an engine for.
enum class AutoWork {
  Correlation,  // a correlation or Savitzky-Golay filter: size in taps, and the signal's samples a channel
  Median,       // a median filter
  SecondOrderSections,  // sosfilt, sosfiltfilt
  RateChange,   // the stages' own GPU work (GpuStageWork): size in samples a channel
  Spectrogram,
  FindPeaks,
  Hilbert,
  Welch,        // Welch's spectrum: size in samples of the signal (or range) it reads
  CorrelateFft, // correlate's FFT on a GPU (method fft or auto): size in template taps, the signal's samples a channel
};

// The table: which sizes of a work admit an engine faster than the exact CPU ones. Why each, as
// measured on the H100 host SigLab was tuned on (README, "Choosing an engine"):
//  - Correlation from kGpuMinWindow taps, the GPU's (gpu-tuned): its end-to-end time is bound by
//    its transfers (5.8 ms at 10M float64) while cpu-parallel's grows with W (1.1 ms at W = 5 on
//    the host's 16 cores, about 0.06 ms more a tap); and only for a signal of at least
//    kGpuStageMinSamples a channel at kGpuMinWindow taps (fewer samples for more taps: the CPU's
//    work, samples x taps, at least kGpuStageMinSamples x kGpuMinWindow): there both take about
//    0.7 ms (cpu-parallel 0.06 ms a tap per 10M samples; gpu-tuned's copies 0.58 ms a million samples
//    plus its launches), and below it the CPU's whole pass is shorter than the GPU's copies;
//  - Median from any window, the GPU's (gpu-median): the GPU selects every window in parallel where
//    the CPU slides one sorted window a core, bit-identical either way;
//  - the stages' work from kGpuStageMinSamples a channel, the GPU's: below it the CPU's pass is
//    shorter than the GPU's copies and launches (a 1M-sample rate change or spectrogram takes about
//    a millisecond on 16 cores, the copies alone 0.6 ms); from it on the GPU's time is its transfers;
//  - SecondOrderSections up to kSosScanDefaultFade samples of fade (sosFadeLength: the slowest pole
//    down to 2^-53), cpu-parallel's block scan: its carried state then shows only just past a cut
//    and fades as the recursion's own, within its stated bound (sosKindTolerance); the limit is a
//    sixteenth of the scan's shortest block. gpu-sos-scan, bounded only relative to the signal's
//    peak, is never auto's;
//  - Welch from kWelchGpuMinSamples samples, the GPU's (cuFFT): a call costs the GPU about 0.35 ms
//    beyond its pipeline (window, stream, sums back) plus its copies, 0.165 ns a sample from pinned
//    memory to 0.285 from pageable; FFTW takes 3.6-4.1 ns a sample on one core (this machine,
//    2^18-2^22 samples), 0.62 on the host's 16 threads at 10M. At 2^20 samples FFTW takes 0.27 ms
//    (16 cores at this machine's rate) to 0.65 (the host's), the GPU 0.52-0.65: below it FFTW's
//    whole pass is the shorter however its threads scale; at 10M the GPU takes 2.0-3.2 ms, FFTW 6.2
//    (docs/perf/welch-auto-session20.txt).
//  - CorrelateFft from kGpuFftMinTaps taps, the GPU's FFT (gpu-fft's overlap-save) for the correlate
//    stage, whose method fft or auto accepts the FFT's bound (fftCorrelateBound, as SciPy's method
//    'fft' and 'auto' do): gpu-tuned's direct sums grow with the taps, about 0.04 ms + 5.0 us a tap
//    at 10M samples on the device (0.360 ms at 64 taps, 250 ms at 50,000), gpu-fft's overlap-save
//    hardly does (0.764 ms at 50,000 taps as committed; 1.406 in an earlier form): they cross at 145
//    taps (273 for the earlier form), so 256 is well past it (docs/perf/gpu-h100-stages-session20.txt;
//    both copy the same samples each way).
//    Method auto below it keeps SciPy's rule (its FFT from 400-700 taps on a long signal), which sums
//    directly there (gpu-tuned's, by the RateChange row); method fft takes gpu-fft at any taps. Only
//    for a signal of at least kGpuStageMinSamples a channel (leastSamples): below it FFTW's whole pass
//    is shorter than the GPU's copies, as for the stages' work. The filter kinds never take an FFT
//    engine (norm-wise only: job.hpp's chooseAutoEngine). The CPU has no such gap: SciPy's rule
//    takes FFTW from 400-700 taps, before SigLab's own crossover (1024-2048 taps at 1M samples), so
//    it stays (docs/perf/correlate-auto-session21.txt).
inline constexpr std::size_t kGpuMinWindow = 101;
inline constexpr std::uint64_t kGpuStageMinSamples = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kSosScanDefaultFade = 4096;
inline constexpr std::uint64_t kWelchGpuMinSamples = std::uint64_t{1} << 20;
inline constexpr std::uint64_t kGpuFftMinTaps = 256;

/// One row of the auto rule's table.
struct AutoThreshold {
  AutoWork work;
  bool gpu;            // admits the GPU engine that runs the work here; false: cpu-parallel's block scan
  std::uint64_t least; // the sizes that admit it: taps, samples a channel, or samples of fade
  std::uint64_t most;
  // Correlation: the signal's samples a channel that admit it at `least` taps (samples x taps at
  // least leastSamples x least); CorrelateFft: the least samples a channel; 0 for the rest.
  std::uint64_t leastSamples = 0;
};
inline constexpr std::uint64_t kNoLimit = UINT64_MAX;
inline constexpr AutoThreshold kAutoThresholds[] = {
    {AutoWork::Correlation, true, kGpuMinWindow, kNoLimit, kGpuStageMinSamples},
    {AutoWork::Median, true, 0, kNoLimit},
    {AutoWork::SecondOrderSections, false, 0, kSosScanDefaultFade},
    {AutoWork::RateChange, true, kGpuStageMinSamples, kNoLimit},
    {AutoWork::Spectrogram, true, kGpuStageMinSamples, kNoLimit},
    {AutoWork::FindPeaks, true, kGpuStageMinSamples, kNoLimit},
    {AutoWork::Hilbert, true, kGpuStageMinSamples, kNoLimit},
    {AutoWork::Welch, true, kWelchGpuMinSamples, kNoLimit},
    {AutoWork::CorrelateFft, true, kGpuFftMinTaps, kNoLimit, kGpuStageMinSamples},
};

/// What auto is asked.
struct AutoQuestion {
  AutoWork work = AutoWork::Correlation;
  std::uint64_t size = 0;  // taps (Correlation, Median), samples of fade (SecondOrderSections; UINT64_MAX:
                           // never), or samples a channel (a stage's work)
  std::string gpuEngine;   // the GPU engine that runs the work here (a filter's: exact or bounded per output), or empty
  std::string gpuWhyNot;   // why none does, when gpuEngine is empty
  bool streamed = false;   // the run goes block by block (find-peaks' GPU engine takes the whole signal)
  std::uint64_t samples = kNoLimit;  // Correlation, CorrelateFft: the signal's samples a channel (kNoLimit: unknown, a stream)
  bool fftNamed = false;   // CorrelateFft: method fft named the FFT, so only where it runs is asked, not its taps
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

// Whether `row` admits its engine for a signal of `samples` a channel at `size` taps: samples x size
// at least row.leastSamples x row.least (the CPU's work, which grows with both).
bool admitsLength(const AutoThreshold& row, std::uint64_t size, std::uint64_t samples);

}  // namespace siglab
