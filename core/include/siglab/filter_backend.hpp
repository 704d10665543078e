#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/filter_spec.hpp"
#include "siglab/polyphase.hpp"
#include "siglab/io/sample_type.hpp"
#include "siglab/measure.hpp"
#include "siglab/progress.hpp"
#include "siglab/timing.hpp"

namespace siglab {

struct SpectrogramLayout;  // spectrogram.hpp
struct PeakOptions;        // find_peaks.hpp
struct PeakRow;

// How an engine runs (not what it computes: that is the FilterSpec).
struct RunOptions {
  int blockSize = 512;                     // threads per block for GPU kernels
  std::size_t deviceMemoryBudgetBytes = 0;  // device memory a chunking GPU engine may use; 0: its own default
};

// Where an engine cut its work: outputs on both sides of a cut are where a halo, a tail or a
// restarted sum goes wrong, so --verify checks them. `every` > 0 adds a regular grid of cuts at
// every multiple of it (GPU blocks and tiles); `at` lists the others (CPU pieces, GPU chunks).
struct WorkSplits {
  std::vector<std::size_t> at;
  std::size_t every = 0;
};

// What one execution of one filter reported: its phases, all from that same execution, where it
// cut the work, and a note for people (a fallback taken, the chunks used).
struct FilterPass {
  PhaseTimes phases;
  WorkSplits splits;
  std::string note;
};

// Thrown by an engine that cannot filter these samples (a refusal only the data reveals, such as
// non-finite samples in a running sum); what the spec and sample type decide is whyNot()'s.
class EngineUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// How far an engine's every output may be from the exact one. Exact: bit-identical to cpu-serial.
// ComponentWise: within a bound relative to its own window's sum |tap x|. NormWise: within a bound
// relative to the signal's largest |sample| (FFT blocks, running and prefix sums, the sections'
// block scan): an output far smaller than the signal's peak may lose every digit.
enum class ErrorBound { Exact, ComponentWise, NormWise };
std::string_view toString(ErrorBound bound);

// One filter engine. Front-ends hold a list of these and never branch on CPU or GPU: they ask
// whyNot() before running, and filter() runs one filter once. Measuring (warm-ups, repeats) is
// measure()'s, never an engine's.
class FilterBackend {
 public:
  virtual ~FilterBackend() = default;
  virtual std::string_view name() const = 0;         // "cpu-serial", "gpu-shared", ...
  virtual std::string_view description() const = 0;  // one line for people
  // Whether the engine computes on a GPU (its transfers are then host<->device copies).
  virtual bool usesGpu() const { return false; }
  // Why this engine cannot run `spec` on samples of `type` here, or empty when it can. Checked
  // before any run; filter() may assume it is empty.
  virtual std::string whyNot(const FilterSpec& spec, SampleType type) const = 0;
  // Largest |out - reference| accepted; 0 means the output must be bit-identical to cpu-serial.
  virtual double tolerance(const FilterSpec& /*spec*/, double /*maxAbsInput*/) const { return 0.0; }
  // The same for a float32 run (compared with cpu-serial's float32 result).
  virtual double toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const {
    return tolerance(spec, maxAbsInput);
  }
  // The kind of bound its tolerance is. By default: Exact when the tolerance is 0, else NormWise
  // (every tolerance taking maxAbsInput is one); an engine with a per-output bound says so.
  virtual ErrorBound errorBound(const FilterSpec& spec, SampleType type) const {
    const double unit = type == SampleType::f32 ? toleranceFloat32(spec, 1.0) : tolerance(spec, 1.0);
    return unit == 0.0 ? ErrorBound::Exact : ErrorBound::NormWise;
  }
  // Filters `in` into `out` (same size) once. Checks `progress` for cancellation between pieces
  // of work of a few milliseconds, so Cancel stops it within 100 ms (throws Cancelled). Throws EngineUnavailable for samples it cannot take, and
  // std::runtime_error (device problems included, explained) when the run fails.
  virtual FilterPass filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                            const RunOptions& options, const Progress& progress = {}) = 0;
  virtual FilterPass filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                            const RunOptions& options, const Progress& progress = {}) = 0;

  // Besides filters, the FIR rate changes (upfirdn, resample_poly, decimate's FIR): why this engine
  // cannot run one here, or empty where it can (the GPU's correlation engine, gpu-tuned, runs them).
  virtual std::string whyNotPolyphase() const { return std::string(name()) + " runs no rate changes"; }
  // out[j] = fir.outputAt(j) over all of `in`, j < out.size(): Polyphase::run's bits. Throws as filter() does.
  virtual FilterPass polyphase(const Polyphase& /*fir*/, std::span<const double> /*in*/, std::span<double> /*out*/,
                               const Progress& /*progress*/) {
    throw EngineUnavailable(whyNotPolyphase());
  }

  // The spectrogram / stft frames (the GPU's FFT engine, gpu-fft, computes them): why not here, or empty.
  virtual std::string whyNotSpectrogram() const { return std::string(name()) + " computes no spectrogram"; }
  // Frames [0, frames) of `layout` from `x` (frame f at x[f * step]) into `out` (frames x planes x
  // frequencies), as FrameTransform computes them within spectrogramAgreementBound. Throws as filter() does.
  virtual FilterPass spectrogram(std::span<const double> /*x*/, const SpectrogramLayout& /*layout*/,
                                 std::uint64_t /*frames*/, std::span<double> /*out*/, const Progress& /*progress*/) {
    throw EngineUnavailable(whyNotSpectrogram());
  }
  // find_peaks with these options on the whole signal at once (gpu-tuned runs height, threshold and
  // distance): why not here, or empty.
  virtual std::string whyNotFindPeaks(const PeakOptions& /*options*/) const {
    return std::string(name()) + " finds no peaks";
  }
  // The Hilbert transform of a whole signal, or of an overlapped block of one (gpu-fft runs it):
  // why not here, or empty.
  virtual std::string whyNotHilbert() const { return std::string(name()) + " computes no Hilbert transform"; }
  // out = scipy.signal.hilbert(x).imag, or its magnitude |x + i H(x)| (the envelope) where
  // `magnitude`, within the FFT's rounding of the CPU's (hilbertTransform). Throws as filter() does.
  virtual FilterPass hilbert(std::span<const double> /*x*/, std::span<double> /*out*/, bool /*magnitude*/,
                             const Progress& /*progress*/) {
    throw EngineUnavailable(whyNotHilbert());
  }
  // correlate's FFT method (gpu-fft runs it): why not here, or empty.
  virtual std::string whyNotFftCorrelate() const { return std::string(name()) + " computes no FFT correlation"; }
  // Outputs [offset, offset + out.size()) of the full convolution of x with `reversed` (the template
  // reversed), as fftCorrelate (fft_correlate.hpp) within fftCorrelateBound. Throws as filter() does.
  virtual FilterPass fftCorrelate(std::span<const double> /*x*/, std::span<const double> /*reversed*/,
                                  std::uint64_t /*offset*/, std::span<double> /*out*/, const Progress& /*progress*/) {
    throw EngineUnavailable(whyNotFftCorrelate());
  }
  // Every peak of `x`, PeakFinder's rows exactly. Throws as filter() does.
  virtual FilterPass findPeaks(std::span<const double> /*x*/, const PeakOptions& options, std::vector<PeakRow>& /*rows*/,
                               const Progress& /*progress*/) {
    throw EngineUnavailable(whyNotFindPeaks(options));
  }
};

/// The engines a front-end offers, in the order comparisons list them.
using BackendList = std::vector<std::unique_ptr<FilterBackend>>;

// The reason every engine gives for a sample type other than float64 or float32, or empty.
std::string whyNotSampleType(SampleType type);

}  // namespace siglab
