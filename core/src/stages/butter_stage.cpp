// butter: a Butterworth filter as second-order sections (scipy.signal.butter, sosfilt or
// sosfiltfilt); --butter ORDER,CUTOFF[,CUTOFF2][,TYPE] [zero-phase]. Cutoffs are Hz when the
// signal has a rate, else fractions of Nyquist.
#include <cmath>

#include "band_design.hpp"
#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"

namespace siglab::stages {
namespace {

constexpr std::string_view kUsage = "takes ORDER,CUTOFF[,CUTOFF2][,lowpass|highpass|bandpass|bandstop]";

bool isBand(BandType type) { return type == BandType::Bandpass || type == BandType::Bandstop; }

// A band type needs two cutoffs, the others one: said as the CLI has always said it.
void checkCutoffCount(BandType type, bool twoCutoffs) {
  if (isBand(type) == twoCutoffs) return;
  throw StageError(isBand(type) ? std::string(toString(type)) + " needs two cutoffs: ORDER,LOW,HIGH"
                                : std::string(toString(type)) + " takes one cutoff: ORDER,CUTOFF");
}

BandType bandOf(const StageParameters& values) { return *parseBandType(textOf(values, "type")); }

class ButterKind final : public StageKind {
 public:
  std::string_view name() const override { return "butter"; }
  std::string_view summary() const override {
    return "Butterworth filter as second-order sections (scipy.signal.butter; sosfilt, or sosfiltfilt with zero-phase)";
  }
  std::string_view valueSyntax() const override { return "ORDER,CUTOFF[,CUTOFF2][,TYPE]"; }
  std::string_view exampleValue() const override { return "4,0.1,0.3"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo order = describedParameter("order", ParameterType::Whole, "the filter's order", std::nullopt, true);
    order.min = 1;
    order.max = kMaxButterworthOrder;
    std::vector<ParameterInfo> all{order};
    for (ParameterInfo& band : bandParameters()) all.push_back(std::move(band));
    all.push_back(describedParameter("zero-phase", ParameterType::Flag,
                                     "forward and backward (scipy.signal.sosfiltfilt), no phase shift"));
    return all;
  }

  StageParameters parseValue(std::string_view value) const override {
    std::vector<std::string> parts = valueFields(value);
    std::optional<BandType> type = parseBandType(parts.back());
    if (type) parts.pop_back();
    if (parts.size() < 2 || parts.size() > 3) throw StageError(std::string(kUsage) + ", got " + quoteExcerpt(value));
    StageParameters values{{"order", static_cast<std::int64_t>(wholeIn(parts[0], 1, kMaxButterworthOrder, "ORDER"))},
                           {"cutoff", numberIn(parts[1], "CUTOFF")}};
    const BandType band = type.value_or(parts.size() == 3 ? BandType::Bandpass : BandType::Lowpass);
    checkCutoffCount(band, parts.size() == 3);
    if (parts.size() == 3) values["cutoff2"] = numberIn(parts[2], "CUTOFF2");
    values["type"] = std::string(toString(band));
    return values;
  }

  // The band type is written only where two cutoffs do not already say it (bandpass) or one (lowpass).
  std::string formatValue(const StageParameters& values) const override {
    const BandType band = bandOf(values);
    std::vector<std::string> parts{std::to_string(wholeOf(values, "order")), parameterText(values.at("cutoff"))};
    if (isBand(band)) parts.push_back(parameterText(values.at("cutoff2")));
    if (band != BandType::Bandpass && band != BandType::Lowpass) parts.emplace_back(toString(band));
    std::string text = parts.front();
    for (std::size_t k = 1; k < parts.size(); ++k) text.append(",").append(parts[k]);
    return text;
  }

  void check(const StageParameters& values) const override {
    checkCutoffCount(bandOf(values), numberOf(values, "cutoff2") != 0.0);
  }

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    check(values);
    ButterworthSpec design;
    design.order = static_cast<int>(wholeOf(values, "order"));
    design.cutoff = numberOf(values, "cutoff");
    design.cutoff2 = numberOf(values, "cutoff2");
    design.type = bandOf(values);
    design.sampleRate = context.sampleRate.value_or(0.0);
    FilterSpec spec;
    try {
      spec = makeButterworthFilter(design, flagOf(values, "zero-phase"));
    } catch (const std::invalid_argument& e) {
      throw StageError(e.what() + std::string(context.sampleRate ? ""
                                              : " (without a rate, cutoffs are fractions of Nyquist, between 0 and 1)"));
    }
    if (context.samples) asStageError([&] { checkSignalLength(spec, *context.samples, ""); });
    return makeFilterStage(std::move(spec), {}, context.sampleRate);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& butterKind() {
  static const stages::ButterKind kind;
  return kind;
}
}  // namespace siglab
