#pragma once
// One pipeline for both front-ends: a Job says what to read, what to compute and how; the
// functions here choose the engines, narrow the samples, apply one engine once (and verify it) or
// compare several. The CLI and the GUI build a Job and present what comes back.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/auto_engine_rule.hpp"
#include "siglab/comparison.hpp"
#include "siglab/filter_backend.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/verify.hpp"

namespace siglab {

/// What a front-end asks of one filter run or comparison: the input, the filter, the sample type,
/// the engines and the checks.
struct Job {
  std::string input;                          // the signal's file
  ReadOptions read;
  FilterSpec spec;                            // what is computed (its accumulator included)
  SampleType sampleType = SampleType::f64;    // what the engines run in: f64, or f32 (narrowed)
  std::string engines = "auto";               // apply: "auto" or one name; compare: a list or "all"
  RunOptions run;
  MeasureOptions measure;                     // compare only
  std::size_t verifyRandom = kDefaultVerifyRandom;  // apply: random outputs checked; 0 skips --verify
  bool verify = true;                         // apply: check the result (false when verifyRandom is 0)
  bool verifyAll = false;                     // apply: every output of a recursive filter, not stretches
};

// A request that cannot be met as asked: a usage error, said in words (exit 2 in the CLI).
class JobError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Every engine's name, ", "-separated, in the list's order.
std::string engineNames(const BackendList& engines);
/// The engine named `name`, or nullptr.
FilterBackend* findEngine(const BackendList& engines, std::string_view name);

// The engines `list` names ("all" for every one, else comma-separated names), in the list's
// order. Throws JobError naming an unknown engine and the known ones.
std::vector<FilterBackend*> selectEngines(const BackendList& engines, std::string_view list);

// The engine an apply runs, and why it was chosen.
struct EngineChoice {
  FilterBackend* engine = nullptr;
  std::string why;
};

// "auto": the fastest engine that can run `spec` here and whose every output is exact or within a
// component-wise bound (errorBound()). An engine bounded only norm-wise (cpu-fft, gpu-fft,
// cpu-running, gpu-tuned's prefix sums, the sections' block scan) can lose every digit of an output
// far smaller than the signal's peak (a spike of 1e100 made outputs 2,000 samples away -1.9e82
// instead of -0.214): it runs only when named, but for the sections' block scan where the rule
// checked its bound (poles that fade within kSosScanDefaultFade samples). Among the rest, the first
// of the auto rule's order (autoEngineOrder, auto_engine_rule.hpp: gpu-tuned from kGpuMinWindow
// taps on a signal long enough, gpu-median for a median, then cpu-parallel, then cpu-serial) that
// can run it here. `samples`: the signal's length a channel (kNoLimit: unknown, a stream).
EngineChoice chooseAutoEngine(const BackendList& engines, const FilterSpec& spec, SampleType type,
                              std::uint64_t samples = kNoLimit);

// Whether auto's first pick for the sections `spec` is cpu-parallel's block scan (the rule's check of
// its bound: poles that fade within kSosScanDefaultFade samples): a stream of them runs the scan too.
bool autoScansSections(const FilterSpec& spec);

// The engine job.engines names for an apply: "auto", or exactly one engine that can run the spec
// here. Throws JobError for several engines or "all" (that is a comparison), an unknown name, or
// an engine that cannot run the spec (with its own reason).
EngineChoice chooseApplyEngine(const BackendList& engines, const Job& job, std::uint64_t samples = kNoLimit);

// The engines an apply tries, in order: auto's candidates (an engine that fails here gives way to
// the next), or the one engine job.engines names. Throws as chooseApplyEngine does.
// `samples`: the signal's length a channel, as chooseAutoEngine takes it.
std::vector<EngineChoice> applyEngineOrder(const BackendList& engines, const Job& job, std::uint64_t samples);

// Whether float32 holds `v` once rounded to nearest: |v| below FLT_MAX + half its ulp (2^128 - 2^103),
// so FLT_MAX itself and its 9-digit text 3.40282347e+38 are held; an infinity is not.
inline bool fitsFloat32(double v) { return std::fabs(v) < 0x1.ffffffp+127; }

// The samples in float32, or an InputError naming `path` and the first sample float32 cannot hold.
std::vector<float> narrowToFloat32(std::span<const double> samples, const std::string& path);
// The same into `out` (same size), for samples that start at sample `firstIndex` of the signal.
void narrowToFloat32Into(std::span<const double> samples, std::span<float> out, const std::string& path,
                         std::uint64_t firstIndex);
// The samples a run of `type` reads: `samples` itself for float64; for float32, each as float32 holds
// it, widened back into `storage` (the stages that compute in float64 on float32's inputs).
std::span<const double> samplesAsTyped(std::span<const double> samples, SampleType type, const std::string& path,
                                       std::vector<double>& storage);

// One engine, once, and its result.
struct ApplyResult {
  std::string engine;
  bool usesGpu = false;
  FilterPass pass;
  SampleVector output;         // a float32 result widened (exactly); from job.read.hostMemory for float64
  Verification verification;   // checked == 0 when not verified
  double verifyMs = 0.0;       // time the verification took
};

// Runs `engine` once over `samples` (narrowed first for f32) and, unless job.verify is false,
// verifies its result at verificationPositions() (a recursive filter: sosVerificationStretches, or
// every output with job.verifyAll). Throws EngineUnavailable, std::runtime_error
// for a failed run, InputError for samples float32 cannot hold, Cancelled.
ApplyResult applyFilter(FilterBackend& engine, std::span<const double> samples, const Job& job,
                        const Progress& progress = {});
// The same into `out` (samples' size, not overlapping them): result.output stays empty.
ApplyResult applyFilterInto(FilterBackend& engine, std::span<const double> samples, std::span<double> out,
                            const Job& job, const Progress& progress = {});

// What applyJob did: the result, the engine's choice and why, and any engine auto passed over
// after it failed here (with the reason).
struct AppliedJob {
  ApplyResult result;
  std::string why;
  std::vector<std::string> fellBack;
};

// chooseApplyEngine, then applyFilter; with "auto", an engine that fails here (no finite
// samples for cpu-running, a GPU out of memory) gives way to the next choice.
AppliedJob applyJob(const BackendList& engines, std::span<const double> samples, const Job& job,
                    const Progress& progress = {});
// The same into `out` (samples' size): result.output stays empty.
AppliedJob applyJobInto(const BackendList& engines, std::span<const double> samples, std::span<double> out,
                        const Job& job, const Progress& progress = {});

// Every engine job.engines names ("all" by default), measured and checked against cpu-serial.
Comparison compareEngines(const BackendList& engines, std::span<const double> samples, const Job& job,
                          const ComparisonProgress& onEngineDone = {}, const Progress& progress = {});

}  // namespace siglab
