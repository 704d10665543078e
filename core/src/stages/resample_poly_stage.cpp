// resample-poly: scipy.signal.resample_poly(x, up, down, window=('kaiser', 5.0), padtype='constant'):
// up and down reduced by their gcd, a firwin low-pass of 2 (10 max(up, down)) + 1 taps scaled by up,
// the outputs centred on it, ceil(n up / down) of them; --resample-poly UP,DOWN.
#include <cstdint>
#include <numeric>

#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "polyphase_stage.hpp"
#include "siglab/rate_designs.hpp"

namespace siglab::stages {
namespace {

constexpr std::uint64_t kMostFactor = std::uint64_t{1} << 16;  // taps grow as 20 max(up, down)

class ResamplePolyKind final : public StageKind {
 public:
  std::string_view name() const override { return "resample-poly"; }
  std::string_view summary() const override {
    return "the rate times UP / DOWN by polyphase filtering (scipy.signal.resample_poly)";
  }
  std::string_view valueSyntax() const override { return "UP,DOWN"; }
  std::string_view exampleValue() const override { return "3,2"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo up = describedParameter("up", ParameterType::Whole, "the upsampling factor", std::nullopt, true);
    ParameterInfo down = describedParameter("down", ParameterType::Whole, "the downsampling factor", std::nullopt, true);
    for (ParameterInfo* factor : {&up, &down}) {
      factor->min = 1;
      factor->max = static_cast<double>(kMostFactor);
    }
    ParameterInfo window = describedParameter("window", ParameterType::Choice,
                                              "the low-pass filter's window: ('kaiser', beta) or hamming", "kaiser");
    window.choices = {"kaiser", "hamming"};
    ParameterInfo beta = describedParameter("beta", ParameterType::Number, "the Kaiser window's beta", "5");
    beta.min = 0;
    beta.max = 1000;
    return {up, down, window, beta};
  }

  StageParameters parseValue(std::string_view value) const override {
    const std::vector<std::string> parts = valueFields(value);
    if (parts.size() != 2) throw StageError("takes UP,DOWN (3,2: the rate times 3/2), got " + quoteExcerpt(value));
    return {{"up", static_cast<std::int64_t>(wholeIn(parts[0], 1, kMostFactor, "UP"))},
            {"down", static_cast<std::int64_t>(wholeIn(parts[1], 1, kMostFactor, "DOWN"))}};
  }

  std::string formatValue(const StageParameters& values) const override {
    return std::to_string(wholeOf(values, "up")) + "," + std::to_string(wholeOf(values, "down"));
  }

  void check(const StageParameters& /*values*/) const override {}

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& /*context*/) const override {
    check(values);
    FirWindow window;
    window.shape = textOf(values, "window") == "hamming" ? FirWindow::Shape::Hamming : FirWindow::Shape::Kaiser;
    window.beta = numberOf(values, "beta");
    const std::int64_t g = std::gcd(wholeOf(values, "up"), wholeOf(values, "down"));
    const std::int64_t up = wholeOf(values, "up") / g, down = wholeOf(values, "down") / g;
    const std::string description = "resample_poly up " + std::to_string(wholeOf(values, "up")) + " down " +
                                    std::to_string(wholeOf(values, "down")) + ", window " + firWindowText(window);
    const auto outputs = [up, down](std::uint64_t n) {
      const std::uint64_t upsampled = n * static_cast<std::uint64_t>(up);
      return upsampled / static_cast<std::uint64_t>(down) + (upsampled % static_cast<std::uint64_t>(down) != 0);
    };
    if (up == 1 && down == 1) {  // scipy returns a copy: one tap of 1
      return makePolyphaseStage(Polyphase({1.0}, 1, 1, 0), outputs, {1, 1}, description);
    }
    const std::int64_t half = 10 * std::max(up, down);
    std::vector<double> taps = firwinLowpass(static_cast<std::size_t>(2 * half + 1), 1.0 / static_cast<double>(std::max(up, down)), window);
    for (double& t : taps) t *= static_cast<double>(up);
    return makePolyphaseStage(Polyphase(std::move(taps), up, down, half), outputs,
                              {static_cast<std::size_t>(up), static_cast<std::size_t>(down)}, description);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& resamplePolyKind() {
  static const stages::ResamplePolyKind kind;
  return kind;
}
}  // namespace siglab
