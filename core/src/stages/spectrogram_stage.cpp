// spectrogram: scipy.signal.spectrogram (SciPy 1.10's defaults: window ('tukey', .25), nperseg 256,
// noverlap nperseg / 8, nfft nperseg, detrend constant, scaling density, mode psd), an analysis
// stage writing frames x frequencies to a .npy (spectrogram_writer.hpp).
#include "kind_values.hpp"
#include "named_values.hpp"
#include "segment_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"
#include "../spectrogram_writer.hpp"

namespace siglab::stages {
namespace {

class SpectrogramKind final : public StageKind {
 public:
  std::string_view name() const override { return "spectrogram"; }
  std::string_view summary() const override {
    return "spectrogram: power (or magnitude, or complex) of windowed segments, frames x frequencies to a .npy "
           "(scipy.signal.spectrogram)";
  }
  std::string_view valueSyntax() const override { return "[NAME=VALUE ...]"; }
  std::string_view exampleValue() const override { return "nperseg=256"; }
  bool endsChain() const override { return true; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo alpha = describedParameter("tukey-alpha", ParameterType::Number,
                                             "the tukey window's tapered fraction (SciPy's ('tukey', .25))", "0.25");
    alpha.min = 0.0;
    alpha.max = 1.0;
    return {segmentParameter("nperseg", "samples a segment (cut to the signal's length where longer)", "256", 1),
            segmentParameter("noverlap", "samples neighbouring segments share (default nperseg / 8)", std::nullopt, 0),
            segmentParameter("nfft", "FFT length, zero-padding each segment (default nperseg)", std::nullopt, 1),
            choiceParameter("window", "the segments' window (periodic, as scipy.signal.get_window)",
                            {"tukey", "hann", "hamming", "blackman", "boxcar"}),
            alpha,
            choiceParameter("detrend", "what each segment loses first (none: SciPy's False)", {"constant", "linear", "none"}),
            choiceParameter("scaling", "density: power per Hz; spectrum: power per bin", {"density", "spectrum"}),
            choiceParameter("mode", "psd: power; magnitude: |X|; complex: X as two planes (re, im)",
                            {"psd", "magnitude", "complex"})};
  }

  StageParameters parseValue(std::string_view value) const override { return namedValues(*this, value); }
  std::string formatValue(const StageParameters& /*values*/) const override { return {}; }

  void check(const StageParameters& values) const override { checkSegmentOverlap(values); }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    SpectrogramOptions o;
    readSegmentValues(values, o);
    o.density = textOf(values, "scaling") == "density";
    const std::string& mode = textOf(values, "mode");
    o.mode = mode == "psd" ? SpectrogramMode::psd : mode == "magnitude" ? SpectrogramMode::magnitude : SpectrogramMode::complex;
    const std::string window = windowLabel(o);
    return asStageError([&] {
      return std::make_unique<detail::SpectrogramAnalysis>(
          "spectrogram", spectrogramLayout(o, context.samples.value_or(0), context.sampleRate), window);
    });
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& spectrogramKind() {
  static const stages::SpectrogramKind kind;
  return kind;
}
}  // namespace siglab
