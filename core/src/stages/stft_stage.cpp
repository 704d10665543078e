// stft: scipy.signal.stft (SciPy 1.10's defaults: window hann, nperseg 256, noverlap nperseg / 2,
// detrend False, boundary 'zeros', padded True, scaling 'spectrum'), an analysis stage writing the
// complex frames as two planes (re, im) to a .npy (spectrogram_writer.hpp).
#include "kind_values.hpp"
#include "named_values.hpp"
#include "segment_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/istft.hpp"
#include "siglab/work_bounds.hpp"
#include "../spectrogram_writer.hpp"

namespace siglab::stages {
namespace {

class StftKind final : public StageKind {
 public:
  std::string_view name() const override { return "stft"; }
  std::string_view summary() const override {
    return "short-time Fourier transform: complex frames (re, im planes) x frequencies to a .npy (scipy.signal.stft)";
  }
  std::string_view valueSyntax() const override { return "[NAME=VALUE ...]"; }
  std::string_view exampleValue() const override { return "nperseg=256"; }
  bool endsChain() const override { return true; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo alpha = describedParameter("tukey-alpha", ParameterType::Number, "the tukey window's tapered fraction", "0.5");
    alpha.min = 0.0;
    alpha.max = 1.0;
    return {segmentParameter("nperseg", "samples a segment (cut to the signal's length where longer)", "256", 1),
            segmentParameter("noverlap", "samples neighbouring segments share (default nperseg / 2)", std::nullopt, 0),
            segmentParameter("nfft", "FFT length, zero-padding each segment (default nperseg)", std::nullopt, 1),
            choiceParameter("window", "the segments' window (periodic, as scipy.signal.get_window)",
                            {"hann", "tukey", "hamming", "blackman", "boxcar"}),
            alpha,
            choiceParameter("detrend", "what each segment loses first (none: SciPy's False)", {"none", "constant", "linear"}),
            choiceParameter("boundary", "zeros: nperseg / 2 zeros before and after the signal; none: SciPy's None",
                            {"zeros", "none"}),
            choiceParameter("padded", "true: zeros after the signal up to a whole segment", {"true", "false"}),
            choiceParameter("scaling", "spectrum: amplitude per bin; psd: per square root of Hz", {"spectrum", "psd"})};
  }

  StageParameters parseValue(std::string_view value) const override { return namedValues(*this, value); }
  std::string formatValue(const StageParameters& /*values*/) const override { return {}; }

  void check(const StageParameters& values) const override { checkSegmentOverlap(values); }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    SpectrogramOptions o;
    o.stft = true;
    o.mode = SpectrogramMode::complex;
    readSegmentValues(values, o);
    o.boundaryZeros = textOf(values, "boundary") == "zeros";
    o.padded = textOf(values, "padded") == "true";
    o.density = textOf(values, "scaling") == "psd";
    const std::string window = windowLabel(o);
    return asStageError([&] {
      SpectrogramLayout layout = spectrogramLayout(o, context.samples.value_or(0), context.sampleRate);
      // SciPy's stft takes any overlap; say where istft will not invert it.
      const std::string note = checkNola(o.window, o.tukeyAlpha, layout.nperseg, layout.noverlap)
                                   ? ""
                                   : "the " + window + " window with noverlap " + std::to_string(layout.noverlap) +
                                         " fails the NOLA constraint: istft cannot invert this STFT";
      return std::make_unique<detail::SpectrogramAnalysis>("stft", std::move(layout), window, note);
    });
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& stftKind() {
  static const stages::StftKind kind;
  return kind;
}
}  // namespace siglab
