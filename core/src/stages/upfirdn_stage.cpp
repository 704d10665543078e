// upfirdn: scipy.signal.upfirdn(h, x, up, down): upsample by UP, filter with the taps of FILE (one a
// line, any count), downsample by DOWN; every output of the full convolution; --upfirdn FILE,UP,DOWN.
#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "polyphase_stage.hpp"
#include "siglab/io/signal_io.hpp"
#include <cstdint>

namespace siglab::stages {
namespace {

constexpr std::uint64_t kMostFactor = std::uint64_t{1} << 20;

class UpfirdnKind final : public StageKind {
 public:
  std::string_view name() const override { return "upfirdn"; }
  std::string_view summary() const override {
    return "upsample, filter with taps from a file, downsample (scipy.signal.upfirdn)";
  }
  std::string_view valueSyntax() const override { return "FILE[,UP[,DOWN]]"; }
  std::string_view exampleValue() const override { return "taps.txt,3,2"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo file = describedParameter("file", ParameterType::Text, "a file of taps h, one a line", std::nullopt, true);
    ParameterInfo up = describedParameter("up", ParameterType::Whole, "the upsampling factor", "1", true);
    ParameterInfo down = describedParameter("down", ParameterType::Whole, "the downsampling factor", "1", true);
    for (ParameterInfo* factor : {&up, &down}) {
      factor->min = 1;
      factor->max = static_cast<double>(kMostFactor);
    }
    return {file, up, down};
  }

  StageParameters parseValue(std::string_view value) const override {
    std::vector<std::string> parts = valueFields(value);
    if (parts.empty() || parts.size() > 3 || parts[0].empty()) {
      throw StageError("takes FILE[,UP[,DOWN]] (taps.txt,3,2), got " + quoteExcerpt(value));
    }
    StageParameters values{{"file", parts[0]}};
    if (parts.size() > 1) values["up"] = static_cast<std::int64_t>(wholeIn(parts[1], 1, kMostFactor, "UP"));
    if (parts.size() > 2) values["down"] = static_cast<std::int64_t>(wholeIn(parts[2], 1, kMostFactor, "DOWN"));
    return values;
  }

  std::string formatValue(const StageParameters& values) const override {
    return textOf(values, "file") + "," + std::to_string(wholeOf(values, "up")) + "," + std::to_string(wholeOf(values, "down"));
  }

  void check(const StageParameters& values) const override {
    if (textOf(values, "file").empty()) throw StageError("takes FILE, a file of taps");
  }

  // Reads the taps (InputError naming the file when it cannot be read).
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& /*context*/) const override {
    check(values);
    const std::string& path = textOf(values, "file");
    std::vector<double> taps = readSignal(path).samples.toVector();
    if (taps.empty()) throw StageError("the taps file " + path + " holds no tap (h must have non-zero length)");
    const std::int64_t up = wholeOf(values, "up"), down = wholeOf(values, "down");
    const std::uint64_t count = taps.size();
    const auto outputs = [count, up, down](std::uint64_t n) {
      return upfirdnLength(n, count, static_cast<std::uint64_t>(up), static_cast<std::uint64_t>(down));
    };
    const std::string description = "upfirdn " + std::to_string(count) + " taps, up " + std::to_string(up) + " down " +
                                    std::to_string(down);
    return makePolyphaseStage(Polyphase(std::move(taps), up, down, 0), outputs,
                              {static_cast<std::size_t>(up), static_cast<std::size_t>(down)}, description);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& upfirdnKind() {
  static const stages::UpfirdnKind kind;
  return kind;
}
}  // namespace siglab
