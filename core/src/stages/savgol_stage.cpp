// savgol: Savitzky-Golay smoothing or differentiation (scipy.signal.savgol_filter);
// --savgol W,ORDER[,DERIV], mode interp (scipy's edges) by default.
#include <algorithm>

#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/savgol.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::stages {
namespace {

constexpr std::string_view kUsage = "takes W,ORDER[,DERIV]";

// W, ORDER and DERIV as the CLI has always checked them; the texts are what the user wrote.
void checkWindowOrderDeriv(const std::string& windowText, const std::string& orderText, const std::string* derivText) {
  const std::uint64_t w = wholeIn(windowText, 1, kMaxKindWindow, "W");
  if (w % 2 == 0) throw StageError("W must be a positive odd number (1, 3, 5, ...), got " + windowText);
  const std::uint64_t order = wholeIn(orderText, 0, std::min<std::uint64_t>(w - 1, kMaxSavgolOrder),
                                      w - 1 <= kMaxSavgolOrder ? "ORDER (below W = " + std::to_string(w) + ")" : "ORDER");
  if (derivText) wholeIn(*derivText, 0, order, "DERIV (at most ORDER = " + std::to_string(order) + ")");
}

class SavgolKind final : public StageKind {
 public:
  std::string_view name() const override { return "savgol"; }
  std::string_view summary() const override {
    return "Savitzky-Golay polynomial fit of ORDER over W samples, or its DERIV-th derivative (scipy.signal.savgol_filter)";
  }
  std::string_view valueSyntax() const override { return "W,ORDER[,DERIV]"; }
  std::string_view exampleValue() const override { return "11,3"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo window = describedParameter("window", ParameterType::Whole, "odd window length W", std::nullopt, true);
    window.unit = "samples";
    window.min = 1;
    window.max = static_cast<double>(kMaxKindWindow);
    ParameterInfo order = describedParameter("order", ParameterType::Whole, "the polynomial's order, below W",
                                             std::nullopt, true);
    order.max = static_cast<double>(kMaxSavgolOrder);
    ParameterInfo deriv = describedParameter("deriv", ParameterType::Whole, "the derivative, at most ORDER", "0", true);
    deriv.max = static_cast<double>(kMaxSavgolOrder);
    return {window, order, deriv, modeParameter(true)};
  }

  StageParameters parseValue(std::string_view value) const override {
    const std::vector<std::string> parts = valueFields(value);
    if (parts.size() < 2 || parts.size() > 3) throw StageError(std::string(kUsage) + ", got " + quoteExcerpt(value));
    checkWindowOrderDeriv(parts[0], parts[1], parts.size() == 3 ? &parts[2] : nullptr);
    StageParameters values{{"window", static_cast<std::int64_t>(std::stoull(parts[0]))},
                           {"order", static_cast<std::int64_t>(std::stoull(parts[1]))}};
    if (parts.size() == 3) values["deriv"] = static_cast<std::int64_t>(std::stoull(parts[2]));
    return values;
  }

  std::string formatValue(const StageParameters& values) const override {
    std::string text = std::to_string(wholeOf(values, "window"));
    text.append(",").append(std::to_string(wholeOf(values, "order")));
    if (const std::int64_t deriv = wholeOf(values, "deriv"); deriv != 0) text.append(",").append(std::to_string(deriv));
    return text;
  }

  void check(const StageParameters& values) const override {
    const std::string deriv = std::to_string(wholeOf(values, "deriv"));
    checkWindowOrderDeriv(std::to_string(wholeOf(values, "window")), std::to_string(wholeOf(values, "order")), &deriv);
    SavgolSpec savgol;
    savgol.window = static_cast<std::size_t>(wholeOf(values, "window"));
    savgol.order = static_cast<std::size_t>(wholeOf(values, "order"));
    savgol.deriv = static_cast<std::size_t>(wholeOf(values, "deriv"));
    savgol.interp = textOf(values, "mode") == "interp";
    asStageError([&] { validate(savgol); });  // the coefficients' work bounded, none of it done
  }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    FilterSpec built = asStageError([&] { return spec(values); });
    asStageError([&] {
      if (!context.samples) return;
      if (!built.savgol.interp) checkWindowFits(built.window(), built.mode, *context.samples, "W");
      checkSignalLength(built, *context.samples, "");
    });
    return makeFilterStage(std::move(built), {}, context.sampleRate);
  }

 private:
  // interp: scipy's edges (the mode then unused); else the boundary mode.
  static FilterSpec spec(const StageParameters& values) {
    const bool interp = textOf(values, "mode") == "interp";
    return makeSavgolFilter(static_cast<std::size_t>(wholeOf(values, "window")),
                            static_cast<std::size_t>(wholeOf(values, "order")),
                            static_cast<std::size_t>(wholeOf(values, "deriv")), interp, modeOf(values));
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& savgolKind() {
  static const stages::SavgolKind kind;
  return kind;
}
}  // namespace siglab
