// mean: the seed's moving average, W taps of 1/W (scipy.ndimage.uniform_filter1d); its one-stage
// option is --window W.
#include "kind_values.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::stages {
namespace {

// Longer windows are built for a signal of known size only (cropped to the taps that meet a
// sample), as the CLI builds them after reading.
constexpr std::uint64_t kLongestEagerWindow = std::uint64_t{1} << 20;

// A mean too long to build before the signal's length is known, bound for its response only: the
// response never holds its W taps; it does not run.
class MeanResponseStage final : public BoundStage {
 public:
  MeanResponseStage(std::uint64_t window, std::optional<double> sampleRate) : window_(window), sampleRate_(sampleRate) {}
  std::string describe() const override { return std::to_string(window_) + " taps (mean)"; }
  std::optional<std::size_t> historyBefore() const override { return static_cast<std::size_t>(window_ / 2); }
  std::optional<std::size_t> historyAfter() const override { return static_cast<std::size_t>(window_ / 2); }
  std::vector<std::string> engineNames(const BackendList& /*engines*/) const override { return {}; }
  AppliedJob applyInto(const BackendList& /*engines*/, std::span<const double> /*in*/, std::span<double> /*out*/,
                       const StageRunOptions& /*options*/, const Progress& /*progress*/) const override {
    throw StageError("W " + std::to_string(window_) + " is bound for its response only");
  }
  std::optional<FrequencyResponse> response(std::size_t points) const override {
    return meanResponse(window_, points, sampleRate_);
  }

 private:
  std::uint64_t window_;
  std::optional<double> sampleRate_;
};

class MeanKind final : public StageKind {
 public:
  std::string_view name() const override { return "mean"; }
  std::string_view optionName() const override { return "window"; }
  std::string_view summary() const override { return "moving average of W samples (scipy.ndimage.uniform_filter1d)"; }
  std::string_view valueSyntax() const override { return "W"; }
  std::string_view exampleValue() const override { return "5"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo window = describedParameter("window", ParameterType::Whole, "odd window length W; taps 1/W",
                                              std::to_string(kDefaultWindow), true);
    window.unit = "samples";
    window.min = 1;
    window.max = static_cast<double>(kMaxWindow);
    return {window, modeParameter()};
  }

  StageParameters parseValue(std::string_view value) const override {
    return {{"window", static_cast<std::int64_t>(wholeIn(std::string(value), 1, kMaxWindow, "W"))}};
  }

  std::string formatValue(const StageParameters& values) const override {
    return std::to_string(wholeOf(values, "window"));
  }

  void check(const StageParameters& values) const override {
    const std::int64_t window = wholeOf(values, "window");
    if (window % 2 == 0) throw StageError("W must be odd, got " + std::to_string(window));
  }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    const auto window = static_cast<std::uint64_t>(wholeOf(values, "window"));
    if (!context.samples && context.responseOnly && window > kLongestEagerWindow) {
      return std::make_unique<MeanResponseStage>(window, context.sampleRate);
    }
    std::string note;
    FilterSpec spec = asStageError([&] {
      if (context.samples) return meanFilterFitted(window, modeOf(values), *context.samples, "W", note);
      if (window > kLongestEagerWindow) {
        throw StageError("W " + std::to_string(window) + " is built only for a signal of known length (at most " +
                         std::to_string(kLongestEagerWindow) + " before it): read the signal in memory");
      }
      return makeMeanFilter(window, modeOf(values));
    });
    spec.accumulator = context.accumulator;
    return makeFilterStage(std::move(spec), std::move(note), context.sampleRate);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& meanKind() {
  static const stages::MeanKind kind;
  return kind;
}
}  // namespace siglab
