// envelope: the magnitude of the analytic signal, np.abs(scipy.signal.hilbert(x)) (SciPy 1.10 has
// no envelope function; this is its definition here). In memory the whole signal is transformed
// (FFTW: SciPy's values to the FFT's rounding); streamed, by overlapped blocks (kEnvelopeBlocks),
// within kOverlappedAnalyticBound (analytic_signal.hpp), measured in tests/core/envelope_test.cpp.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "valueless_kind.hpp"
#include "kind_values.hpp"
#include "siglab/analytic_signal.hpp"
#include "siglab/errors.hpp"
#include "siglab/job.hpp"
#include "siglab/stage_engine_rule.hpp"
#include "siglab/work_progress.hpp"

namespace siglab::stages {
namespace {

constexpr std::string_view kSerial = "cpu-serial";
constexpr std::string_view kParallel = "cpu-parallel";
constexpr AnalyticBlocks kEnvelopeBlocks{};

// |re + i im|, without hypot's cost where the squares neither overflow nor underflow.
double magnitude(double re, double im) {
  const double squares = re * re + im * im;
  return squares > 1e-300 && squares < 1e300 ? std::sqrt(squares) : std::hypot(re, im);
}

// Each overlapped block's transform on `gpu` (a GPU engine that runs GpuStageWork::Hilbert), or
// empty: the CPU's serial one.
OverlappedAnalytic::Transform blockTransform(FilterBackend* gpu, const Progress& progress) {
  if (!gpu) return {};
  return [gpu, progress](std::span<const double> x, std::span<double> im) { gpu->hilbert(x, im, false, progress); };
}

// The stream: the envelope of each block as OverlappedAnalytic gives it.
class EnvelopeStream final : public SampleStream {
 public:
  EnvelopeStream(SampleStream& upstream, bool float32, std::string name, Progress progress, FilterBackend* gpu)
      : upstream_(upstream),
        float32_(float32),
        name_(std::move(name)),
        progress_(std::move(progress)),
        analytic_([this](std::span<const double> re, std::span<const double> im) { keep(re, im); }, kEnvelopeBlocks,
                  blockTransform(gpu, progress_)) {}

  std::size_t read(std::span<double> out) override {
    std::size_t given = 0;
    while (given < out.size()) {
      if (taken_ == ready_.size()) {
        if (ended_) break;
        ready_.clear();
        taken_ = 0;
        readMore();
        continue;
      }
      const std::size_t n = std::min(out.size() - given, ready_.size() - taken_);
      std::copy_n(ready_.begin() + static_cast<std::ptrdiff_t>(taken_), n, out.begin() + static_cast<std::ptrdiff_t>(given));
      taken_ += n;
      given += n;
    }
    return given;
  }
  std::optional<std::uint64_t> knownSize() const override { return upstream_.knownSize(); }
  std::optional<double> sampleRate() const override { return upstream_.sampleRate(); }
  double fractionRead() const override { return upstream_.fractionRead(); }

 private:
  void readMore() {
    progress_.throwIfCancelled();
    block_.resize(std::size_t{1} << 16);
    const std::size_t got = upstream_.read(block_);
    block_.resize(got);
    if (float32_ && got > 0) {
      std::vector<float> narrow(got);
      narrowToFloat32Into(block_, narrow, name_, read_);
      std::copy(narrow.begin(), narrow.end(), block_.begin());
    }
    read_ += got;
    analytic_.push(block_);
    if (got == 0) {
      analytic_.finish();
      ended_ = true;
    }
  }
  void keep(std::span<const double> re, std::span<const double> im) {
    for (std::size_t i = 0; i < re.size(); ++i) {
      const double m = magnitude(re[i], im[i]);
      ready_.push_back(float32_ ? static_cast<float>(m) : m);
    }
  }

  SampleStream& upstream_;
  bool float32_;
  std::string name_;
  Progress progress_;
  OverlappedAnalytic analytic_;
  std::vector<double> block_;
  std::vector<double> ready_;
  std::size_t taken_ = 0;
  std::uint64_t read_ = 0;
  bool ended_ = false;
};

// The check: the envelope at the first output and one drawn at random, recomputed from the
// transform's kernel (hilbertAt, O(n) each), within the FFT's rounding: 16 eps (log2 n + 1) ||x||_2
// (float32: and the output's own rounding).
Verification verifyEnvelope(std::span<const double> x, std::span<const double> out, std::uint64_t seed, bool float32) {
  Verification v;
  if (x.empty()) return v;
  // The energy, and whether a non-finite input spreads over the whole transform (as in SciPy: every
  // output is then NaN), in one pass on every core.
  double energy = 0.0;
  bool spread = false;
  const auto n = static_cast<std::int64_t>(x.size());
#pragma omp parallel for schedule(static) reduction(+ : energy) reduction(|| : spread) if (n > (std::int64_t{1} << 16))
  for (std::int64_t i = 0; i < n; ++i) {
    energy += x[i] * x[i];
    spread = spread || !std::isfinite(x[i]);
  }
  v.tolerance = 16 * 2.2e-16 * (std::log2(static_cast<double>(x.size())) + 1) * std::sqrt(energy);
  const std::vector<std::size_t> positions = {0, static_cast<std::size_t>(seed % x.size())};
  const std::vector<double> im = hilbertAt(x, positions);
  for (std::size_t k = 0; k < positions.size(); ++k) {
    const std::size_t p = positions[k];
    const double expected = spread ? NAN : magnitude(x[p], im[k]);
    const double diff = std::fabs((float32 ? static_cast<float>(expected) : expected) - out[p]);
    ++v.checked;
    if (diff <= v.tolerance + (float32 ? 0x1p-23 * expected : 0.0)) continue;
    if (std::isnan(expected) && std::isnan(out[p])) continue;
    if (v.mismatches++ == 0) v.firstMismatch = p;
    v.maxAbsDiff = std::max(v.maxAbsDiff, std::isnan(diff) ? INFINITY : diff);
  }
  return v;
}

class EnvelopeStage final : public BoundStage {
 public:
  std::string describe() const override { return "envelope |hilbert(x)|"; }
  std::optional<std::size_t> historyBefore() const override { return std::nullopt; }
  std::optional<std::size_t> historyAfter() const override { return std::nullopt; }
  bool streamsItself() const override { return true; }
  std::string streamedBound() const override { return std::string(kOverlappedAnalyticBound); }
  std::unique_ptr<SampleStream> streamFrom(SampleStream& upstream, const StageRunOptions& options,
                                           const Progress& progress) const override {
    return std::make_unique<EnvelopeStream>(upstream, options.sampleType == SampleType::f32, options.pathForMessages,
                                            progress, options.streamEngine);
  }
  std::optional<GpuStageWork> streamedGpuWork() const override { return GpuStageWork::Hilbert; }
  // The CPU's engines, then every engine of the list that computes the transform here (gpu-fft).
  std::vector<std::string> engineNames(const BackendList& engines) const override {
    return stageEngineNames({std::string(kParallel), std::string(kSerial)}, GpuStageWork::Hilbert, engines);
  }

  AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override {
    AppliedJob applied;
    const std::string named = stageEngineFor(options.engine, GpuStageWork::Hilbert, in.size(), engines, applied.why);
    FilterBackend* gpu = nullptr;
    if (named != kSerial && named != kParallel) {
      gpu = findEngine(engines, named);
      const std::optional<std::string> why = gpu ? whyNotStage(*gpu, GpuStageWork::Hilbert) : std::nullopt;
      if (!why) throw StageError("envelope runs on cpu-serial, cpu-parallel or gpu-fft, not " + quoteExcerpt(named));
      if (!why->empty()) throw StageError("envelope cannot run on " + named + ": " + *why);
    }
    if (in.size() != out.size()) throw std::invalid_argument("input and output sizes differ");
    const bool parallel = named != kSerial;
    ApplyResult& result = applied.result;
    result.engine = gpu ? named : parallel ? kParallel : kSerial;
    result.usesGpu = gpu != nullptr;
    std::vector<double> narrowed;
    const std::span<const double> x = samplesAsTyped(in, options.sampleType, options.pathForMessages, narrowed);
    progress.throwIfCancelled();
    const auto start = std::chrono::steady_clock::now();
    if (gpu) {
      gpu->hilbert(x, out, true, progressPart(progress, 0.0, 0.9));  // the magnitude, on the device
      if (options.sampleType == SampleType::f32) {
        for (double& m : out) m = static_cast<float>(m);
      }
    } else {
      hilbertTransform(x, out, parallel);  // the imaginary part into out, then the magnitude with x
      const bool narrow = options.sampleType == SampleType::f32;
      const auto count = static_cast<std::int64_t>(out.size());
#pragma omp parallel for schedule(static) if (parallel && count > (std::int64_t{1} << 16))
      for (std::int64_t i = 0; i < count; ++i) {
        const double m = magnitude(x[i], out[i]);
        out[i] = narrow ? static_cast<float>(m) : m;
      }
    }
    result.pass.phases.kernelMs = result.pass.phases.totalMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (options.verify) {
      const auto checking = std::chrono::steady_clock::now();
      result.verification = verifyEnvelope(x, out, 0x5EED + x.size(), options.sampleType == SampleType::f32);
      result.verifyMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - checking).count();
    }
    progress.report(1.0);
    return applied;
  }
};

class EnvelopeKind final : public ValuelessKind {
 public:
  std::string_view name() const override { return "envelope"; }
  std::string_view summary() const override {
    static const std::string text = "the envelope np.abs(scipy.signal.hilbert(x)), the analytic signal's magnitude "
                                    "(SciPy 1.10 has no envelope function); in memory the whole signal's FFT; "
                                    "streamed by " + std::string(kOverlappedAnalyticBound);
    return text;
  }
  std::unique_ptr<BoundStage> bind(const StageParameters& /*values*/, const StageContext& /*context*/) const override {
    return std::make_unique<EnvelopeStage>();
  }
};

}  // namespace

}  // namespace siglab::stages

namespace siglab {
const StageKind& envelopeKind() {
  static const stages::EnvelopeKind kind;
  return kind;
}
}  // namespace siglab
