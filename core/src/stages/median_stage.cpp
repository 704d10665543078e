// median: the median of W samples (scipy.ndimage.median_filter; zero = constant 0); --median W.
#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::stages {
namespace {

StageError windowError(const std::string& given) {
  return StageError("W must be a positive odd number (1, 3, 5, ...) up to " + std::to_string(kMaxKindWindow) +
                    ", got " + given);
}

std::int64_t checkedWindow(std::uint64_t window) {
  if (window == 0 || window % 2 == 0 || window > kMaxKindWindow) throw windowError(std::to_string(window));
  return static_cast<std::int64_t>(window);
}

class MedianKind final : public StageKind {
 public:
  std::string_view name() const override { return "median"; }
  std::string_view summary() const override { return "median of W samples (scipy.ndimage.median_filter)"; }
  std::string_view valueSyntax() const override { return "W"; }
  std::string_view exampleValue() const override { return "5"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo window = describedParameter("window", ParameterType::Whole, "odd window length W", std::nullopt, true);
    window.unit = "samples";
    window.min = 1;
    window.max = static_cast<double>(kMaxKindWindow);
    return {window, modeParameter()};
  }

  StageParameters parseValue(std::string_view value) const override {
    std::uint64_t window = 0;
    try {
      window = wholeIn(std::string(value), 0, std::uint64_t{1} << 62, "W");
    } catch (const StageError&) {
      throw windowError(quoteExcerpt(value));
    }
    return {{"window", checkedWindow(window)}};
  }

  std::string formatValue(const StageParameters& values) const override {
    return std::to_string(wholeOf(values, "window"));
  }

  void check(const StageParameters& values) const override {
    checkedWindow(static_cast<std::uint64_t>(wholeOf(values, "window")));
  }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    const auto window = static_cast<std::size_t>(wholeOf(values, "window"));
    FilterSpec spec = asStageError([&] {
      if (context.samples) checkWindowFits(window, modeOf(values), *context.samples, "W");
      return makeMedianFilter(window, modeOf(values));
    });
    return makeFilterStage(std::move(spec), {}, context.sampleRate);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& medianKind() {
  static const stages::MedianKind kind;
  return kind;
}
}  // namespace siglab
