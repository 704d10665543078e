// gaussian: Gaussian taps of sigma SIGMA (scipy.ndimage.gaussian_filter1d); --gaussian SIGMA.
#include "kind_values.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/taps.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::stages {
namespace {

class GaussianKind final : public StageKind {
 public:
  std::string_view name() const override { return "gaussian"; }
  std::string_view summary() const override { return "Gaussian taps of sigma SIGMA (scipy.ndimage.gaussian_filter1d)"; }
  std::string_view valueSyntax() const override { return "SIGMA"; }
  std::string_view exampleValue() const override { return "2"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo sigma = describedParameter("sigma", ParameterType::Number, "the Gaussian's standard deviation",
                                             std::nullopt, true);
    sigma.unit = "samples";
    sigma.max = 1e17;
    ParameterInfo window = describedParameter("window", ParameterType::Whole,
                                              "odd window length; 0: 2 floor(4 sigma + 0.5) + 1", "0");
    window.unit = "samples";
    window.max = static_cast<double>(kMaxGaussianWindow);
    return {sigma, window, modeParameter()};
  }

  StageParameters parseValue(std::string_view value) const override {
    return {{"sigma", numberIn(std::string(value), "SIGMA")}};
  }

  std::string formatValue(const StageParameters& values) const override { return parameterText(values.at("sigma")); }

  void check(const StageParameters& values) const override { window(values); }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    const double sigma = numberOf(values, "sigma");
    const std::size_t taps = window(values);
    std::string note;
    FilterSpec spec = asStageError([&] {
      return context.samples ? gaussianFilterFitted(sigma, modeOf(values), taps, *context.samples, note)
                             : makeGaussianFilter(sigma, modeOf(values), taps);
    });
    spec.accumulator = context.accumulator;
    return makeFilterStage(std::move(spec), std::move(note), context.sampleRate);
  }

 private:
  // The window built, checked before anything is: sigma positive, window odd and within the bound.
  static std::size_t window(const StageParameters& values) {
    return asStageError([&] {
      return checkedGaussianWindow(numberOf(values, "sigma"), static_cast<std::size_t>(wholeOf(values, "window")));
    });
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& gaussianKind() {
  static const stages::GaussianKind kind;
  return kind;
}
}  // namespace siglab
