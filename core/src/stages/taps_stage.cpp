// taps: custom taps read from a file, one a line, an odd count (a correlation); --taps FILE.
#include "kind_values.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/taps.hpp"

namespace siglab::stages {
namespace {

class TapsKind final : public StageKind {
 public:
  std::string_view name() const override { return "taps"; }
  std::string_view summary() const override {
    return "correlation with custom taps from a file, one a line (scipy.ndimage.correlate1d)";
  }
  std::string_view valueSyntax() const override { return "FILE"; }
  std::string_view exampleValue() const override { return "taps.txt"; }

  std::vector<ParameterInfo> parameters() const override {
    return {describedParameter("file", ParameterType::Text, "a file of taps, one a line, an odd count", std::nullopt, true),
            modeParameter()};
  }

  StageParameters parseValue(std::string_view value) const override {
    if (value.empty()) throw StageError("takes FILE, a file of taps");
    return {{"file", std::string(value)}};
  }

  std::string formatValue(const StageParameters& values) const override { return textOf(values, "file"); }

  void check(const StageParameters& values) const override {
    if (textOf(values, "file").empty()) throw StageError("takes FILE, a file of taps");
  }

  // Reads the file (InputError, naming it, when it cannot be read or holds an even count).
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    FilterSpec spec{readTaps(textOf(values, "file")), modeOf(values)};
    spec.accumulator = context.accumulator;
    std::string note;
    asStageError([&] {
      validate(spec);
      if (context.samples) note = fitSpecToSignal(spec, *context.samples, "W");
    });
    return makeFilterStage(std::move(spec), std::move(note), context.sampleRate);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& tapsKind() {
  static const stages::TapsKind kind;
  return kind;
}
}  // namespace siglab
