// correlate: scipy.signal.correlate(x, template, mode, method), the matched filter: a template file
// (one value a line, or any signal file) slid along the signal. Output k of mode full is
// sum_i x[i] t[i - k + M - 1]: the full convolution with the reversed template, so it runs as a
// Polyphase of up = down = 1 (polyphase_stage.hpp): cpu-serial and cpu-parallel the same bits,
// streamed with the template's length as history, the same bits as in memory. Modes pick the
// window of that convolution: full (N + M - 1), same (N, centred as SciPy's), valid (|N - M| + 1).
// --correlate TEMPLATE[,mode=M][,method=X]; a chain's `correlate t.txt,mode=same`. method fft (or
// auto where SciPy's rule takes the FFT) runs in memory by FFTW instead (FftCorrelateStage); engine
// auto takes gpu-fft's FFT there and, for method auto, from the auto rule's taps (CorrelateFft).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "kind_values.hpp"
#include "named_values.hpp"
#include "polyphase_stage.hpp"
#include "siglab/auto_engine_rule.hpp"
#include "siglab/errors.hpp"
#include "siglab/fft_correlate.hpp"
#include "siglab/job.hpp"
#include "siglab/verify.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab::stages {
namespace {

enum class Mode { full, same, valid };

// The outputs of `mode` for n inputs and m template values, and where they start in the full convolution.
struct Window {
  std::uint64_t count = 0;
  std::uint64_t offset = 0;
};

Window windowOf(Mode mode, std::uint64_t n, std::uint64_t m) {
  switch (mode) {
    case Mode::full: return {n == 0 ? 0 : n + m - 1, 0};
    case Mode::same: return {n, (m - 1) / 2};
    case Mode::valid: return {n == 0 ? 0 : std::max(n, m) - std::min(n, m) + 1, std::min(n, m) - 1};
  }
  return {};
}

// correlate with method fft, or auto where SciPy's rule takes the FFT: in memory one FFT each way
// (fft_correlate.hpp), checked at a few outputs against their direct sums within its bound;
// everything else (its history, its stream, its engines) is the direct stage's, so streamed runs
// sum directly, the exact values the FFT approximates.
class FftCorrelateStage final : public BoundStage {
 public:
  FftCorrelateStage(std::unique_ptr<BoundStage> direct, std::vector<double> reversed, Mode mode, std::string modeText,
                    std::string method)
      : direct_(std::move(direct)), reversed_(std::move(reversed)), mode_(mode), modeText_(std::move(modeText)),
        method_(std::move(method)) {}

  std::string describe() const override {
    return direct_->describe() + ", method " + method_ + " (in memory by FFT where SciPy's would be; streamed, direct)";
  }
  std::string note() const override { return direct_->note(); }
  std::optional<std::size_t> historyBefore() const override { return direct_->historyBefore(); }
  std::optional<std::size_t> historyAfter() const override { return direct_->historyAfter(); }
  std::pair<std::size_t, std::size_t> rateChange() const override { return direct_->rateChange(); }
  std::uint64_t outputSamples(std::uint64_t inputs) const override { return direct_->outputSamples(inputs); }
  bool streamsItself() const override { return direct_->streamsItself(); }
  std::unique_ptr<SampleStream> streamFrom(SampleStream& upstream, const StageRunOptions& options,
                                           const Progress& progress) const override {
    return direct_->streamFrom(upstream, options, progress);
  }
  // The direct sums' engines, then every GPU engine that runs the FFT here (gpu-fft).
  std::vector<std::string> engineNames(const BackendList& engines) const override {
    std::vector<std::string> names = direct_->engineNames(engines);
    for (const auto& engine : engines) {
      const std::string name(engine->name());
      if (engine->usesGpu() && engine->whyNotFftCorrelate().empty() &&
          std::find(names.begin(), names.end(), name) == names.end()) {
        names.push_back(name);
      }
    }
    return names;
  }

  AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override {
    const std::uint64_t m = reversed_.size();
    if (in.empty()) return direct_->applyInto(engines, in, out, options, progress);
    FilterBackend* gpu = nullptr;  // a GPU engine auto chose or the run named that runs the FFT (gpu-fft), else FFTW
    AutoQuestion question;         // auto: the rule's CorrelateFft row, which may take the GPU's FFT
    AutoPick pick;
    if (options.engine == "auto") {
      question = autoFftQuestion(engines, m, in.size());
      pick = autoEngineOrder(question).front();
      if (pick.engine != "cpu-parallel") gpu = findEngine(engines, pick.engine);
    }
    if (!gpu && method_ == "auto" && !scipyPicksFft(in.size(), m, modeText_)) {
      return direct_->applyInto(engines, in, out, options, progress);
    }
    if (options.engine != "auto" && options.engine != "cpu-parallel" && options.engine != "cpu-serial") {
      gpu = findEngine(engines, options.engine);
      if (!gpu || !gpu->usesGpu() || !gpu->whyNotFftCorrelate().empty()) {
        throw StageError("correlate's FFT runs on cpu-serial, cpu-parallel (FFTW) or a GPU engine that computes it "
                         "(gpu-fft), not " + quoteExcerpt(options.engine) +
                         (gpu && gpu->usesGpu() ? ": " + gpu->whyNotFftCorrelate() : std::string()) +
                         "; method=direct sums it on any engine");
      }
    }
    if (out.size() != direct_->outputSamples(in.size())) throw std::invalid_argument("the output's size is not the stage's");
    AppliedJob applied;
    const bool parallel = options.engine != "cpu-serial";
    applied.result.engine = gpu ? std::string(gpu->name()) : parallel ? "cpu-parallel" : "cpu-serial";
    applied.result.usesGpu = gpu != nullptr;
    applied.why = options.engine != "auto" ? "chosen by name"
                  : gpu                    ? pick.why
                  : method_ == "fft"       ? "auto: cpu-parallel, FFTW's threads (method fft)"
                                           : "auto: cpu-parallel, FFTW's threads (method auto: SciPy's rule takes the FFT here)";
    if (options.engine == "auto" && !gpu && !question.gpuEngine.empty()) applied.why += "; " + pick.why;
    std::vector<double> narrowed;
    const std::span<const double> x = samplesAsTyped(in, options.sampleType, options.pathForMessages, narrowed);
    progress.throwIfCancelled();
    const auto start = std::chrono::steady_clock::now();
    const Window window = windowOf(mode_, x.size(), m);
    if (gpu) {
      gpu->fftCorrelate(x, reversed_, window.offset, out, progress);
    } else {
      fftCorrelate(x, reversed_, window.offset, out, parallel);
    }
    if (options.sampleType == SampleType::f32) {
      for (double& y : out) y = static_cast<float>(y);
    }
    applied.result.pass.phases.kernelMs = applied.result.pass.phases.totalMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (options.verify) applied.result.verification = verify(x, out, window.offset, options);
    progress.report(1.0);
    return applied;
  }

 private:
  // The first and last outputs and a few drawn at random, summed directly in long double.
  Verification verify(std::span<const double> x, std::span<const double> out, std::uint64_t offset,
                      const StageRunOptions& options) const {
    Verification v;
    v.tolerance = fftCorrelateBound(x, reversed_);
    std::vector<std::size_t> positions = verificationPositions(out.size(), reversed_.size(), {}, options.verifyRandom, 0xC0FF);
    const auto m = static_cast<std::int64_t>(reversed_.size()), n = static_cast<std::int64_t>(x.size());
    for (const std::size_t p : positions) {
      const std::int64_t k = static_cast<std::int64_t>(offset + p);  // full output k = sum_j x[k - j] reversed[j]
      long double sum = 0.0L;
      for (std::int64_t j = std::max<std::int64_t>(0, k - n + 1); j <= std::min(k, m - 1); ++j) {
        sum += static_cast<long double>(x[static_cast<std::size_t>(k - j)]) * reversed_[static_cast<std::size_t>(j)];
      }
      double expected = static_cast<double>(sum);
      double slack = 0.0;
      if (options.sampleType == SampleType::f32) {
        expected = static_cast<float>(expected);
        slack = 0x1p-23 * std::fabs(expected);
      }
      ++v.checked;
      const double diff = std::fabs(expected - out[p]);
      if (diff <= v.tolerance + slack || (std::isnan(expected) && std::isnan(out[p]))) continue;
      if (v.mismatches++ == 0) v.firstMismatch = p;
      v.maxAbsDiff = std::max(v.maxAbsDiff, std::isnan(diff) ? INFINITY : diff);
    }
    return v;
  }

  // What auto asks the rule: the first GPU engine that computes the FFT here, else why none does.
  AutoQuestion autoFftQuestion(const BackendList& engines, std::uint64_t taps, std::uint64_t samples) const {
    AutoQuestion q;
    q.work = AutoWork::CorrelateFft;
    q.size = taps;
    q.samples = samples;
    q.fftNamed = method_ == "fft";
    for (const auto& engine : engines) {
      if (!engine->usesGpu()) continue;
      const std::string why = engine->whyNotFftCorrelate();
      if (why.empty()) {
        q.gpuEngine = std::string(engine->name());
        return q;
      }
      if (q.gpuWhyNot.empty() && why != engine->FilterBackend::whyNotFftCorrelate()) {
        q.gpuWhyNot = std::string(engine->name()) + ": " + why;
      }
    }
    return q;
  }

  std::unique_ptr<BoundStage> direct_;
  std::vector<double> reversed_;
  Mode mode_;
  std::string modeText_;
  std::string method_;
};

class CorrelateKind final : public StageKind {
 public:
  std::string_view name() const override { return "correlate"; }
  std::string_view summary() const override {
    return "cross-correlation with a template file, the matched filter (scipy.signal.correlate(x, template, mode, "
           "method)): direct sums in one fixed order, or in memory the FFT where method is fft (or auto and SciPy would)";
  }
  std::string_view valueSyntax() const override { return "TEMPLATE[,mode=full|same|valid][,method=auto|direct|fft]"; }
  std::string_view exampleValue() const override { return "template.txt,mode=same"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo file = describedParameter("file", ParameterType::Text, "the template: a signal file (one value a line, .npy, ...)",
                                            std::nullopt, true);
    ParameterInfo mode = choiceParameter("mode", "full: every overlap (N + M - 1); same: N, centred; valid: |N - M| + 1",
                                         {"full", "same", "valid"});
    ParameterInfo method = choiceParameter(
        "method", "SciPy's: direct sums, the FFT (FFTW or gpu-fft's overlap-save, in memory; within 16 eps (log2 L + 1) ||x|| ||t|| of the sums), "
                  "or auto (SciPy's rule by the sizes); streamed, always the direct sums",
        {"auto", "direct", "fft"});
    mode.inValue = method.inValue = true;
    return {file, mode, method};
  }

  StageParameters parseValue(std::string_view value) const override {
    const std::vector<std::string> parts = valueFields(value);
    if (parts.empty() || parts[0].empty() || parts[0].find('=') != std::string::npos) {
      throw StageError("takes TEMPLATE[,mode=full|same|valid][,method=auto|direct|fft] (template.txt,mode=same), got " +
                       quoteExcerpt(value));
    }
    std::string named;
    for (std::size_t k = 1; k < parts.size(); ++k) named += parts[k] + " ";
    StageParameters values = namedValues(*this, named);
    if (values.count("file")) throw StageError("takes the template's file first, not as file=");
    values["file"] = parts[0];
    return values;
  }

  std::string formatValue(const StageParameters& values) const override {
    return textOf(values, "file") + ",mode=" + textOf(values, "mode") + ",method=" + textOf(values, "method");
  }

  void check(const StageParameters& values) const override {
    if (textOf(values, "file").empty()) throw StageError("takes TEMPLATE, a file of the template's values");
  }

  // Reads the template (InputError naming the file when it cannot be read).
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    const std::string& path = textOf(values, "file");
    std::vector<double> reversed = readSignal(path).samples.toVector();
    if (reversed.empty()) throw StageError("the template file " + path + " holds no value (SciPy refuses an empty in2)");
    std::reverse(reversed.begin(), reversed.end());
    const std::string& modeText = textOf(values, "mode");
    const Mode mode = modeText == "full" ? Mode::full : modeText == "same" ? Mode::same : Mode::valid;
    const std::uint64_t m = reversed.size();
    // valid's window starts where the shorter one lies wholly inside the longer: the signal's length
    // matters there, so it is the bound signal's (a template no longer than the signal where unknown).
    const std::uint64_t n = context.samples.value_or(m);
    const Window window = windowOf(mode, std::max<std::uint64_t>(n, 1), m);
    const auto outputs = [mode, m](std::uint64_t inputs) { return windowOf(mode, inputs, m).count; };
    const std::string description = "correlate with " + std::to_string(m) + " template values from " + path +
                                    ", mode " + modeText;
    const std::string& method = textOf(values, "method");
    std::unique_ptr<BoundStage> direct = makePolyphaseStage(
        Polyphase(reversed, 1, 1, static_cast<std::int64_t>(window.offset)), outputs, {1, 1}, description);
    if (method == "direct") return direct;
    return std::make_unique<FftCorrelateStage>(std::move(direct), std::move(reversed), mode, modeText, method);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& correlateKind() {
  static const stages::CorrelateKind kind;
  return kind;
}
}  // namespace siglab
