// firwin: an FIR filter designed by the window method (scipy.signal.firwin), run as lfilter(h, 1, x),
// or filtfilt(h, 1, x) with zero-phase; --firwin NUMTAPS,CUTOFF[,CUTOFF2] [pass-zero ...] [fir-window ...]
// [beta B] [zero-phase]. fir-window is SciPy's `window` (--window W is the mean's option). Cutoffs
// are Hz when the signal has a rate, else fractions of Nyquist.
#include <cmath>
#include <cstdint>

#include "given_filters.hpp"
#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/firwin.hpp"

namespace siglab::stages {
namespace {

constexpr FirPassZero kPassZeros[] = {FirPassZero::True,     FirPassZero::False,    FirPassZero::Lowpass,
                                      FirPassZero::Highpass, FirPassZero::Bandpass, FirPassZero::Bandstop};

class FirwinKind final : public StageKind {
 public:
  std::string_view name() const override { return "firwin"; }
  std::string_view summary() const override {
    return "FIR filter by the window method (scipy.signal.firwin; lfilter, or filtfilt with zero-phase)";
  }
  std::string_view valueSyntax() const override { return "NUMTAPS,CUTOFF[,CUTOFF2]"; }
  std::string_view exampleValue() const override { return "31,0.2"; }

  std::vector<ParameterInfo> parameters() const override {
    ParameterInfo numtaps = describedParameter("numtaps", ParameterType::Whole, "the filter's length (taps)",
                                               std::nullopt, true);
    numtaps.min = 1;
    numtaps.max = static_cast<double>(kMaxFirwinTaps);
    ParameterInfo cutoff = describedParameter("cutoff", ParameterType::Number, "the cutoff (a band's low edge)",
                                              std::nullopt, true);
    ParameterInfo cutoff2 = describedParameter("cutoff2", ParameterType::Number, "a band's high edge; 0 for one cutoff",
                                               "0", true);
    for (ParameterInfo* c : {&cutoff, &cutoff2}) {
      c->unit = "Hz (x Nyquist without a rate)";
      c->max = INFINITY;
    }
    ParameterInfo passZero = describedParameter(
        "pass-zero", ParameterType::Choice,
        "true: a passband at 0 (lowpass, or bandstop with two cutoffs); false: a stopband at 0; or the band by name",
        "true");
    for (const FirPassZero p : kPassZeros) passZero.choices.emplace_back(toString(p));
    // SciPy's `window`: named apart from --window W (the mean's option), which the CLI holds.
    ParameterInfo window = describedParameter("fir-window", ParameterType::Choice, "the window (scipy.signal.firwin's window)",
                                              "hamming");
    window.choices = firwinWindows();
    ParameterInfo beta = describedParameter("beta", ParameterType::Number, "kaiser's beta", "0");
    beta.max = INFINITY;
    return {numtaps, cutoff, cutoff2, passZero, window, beta,
            describedParameter("zero-phase", ParameterType::Flag, "forward and backward (scipy.signal.filtfilt)")};
  }

  StageParameters parseValue(std::string_view value) const override {
    const std::vector<std::string> parts = valueFields(value);
    if (parts.size() < 2 || parts.size() > 3) {
      throw StageError("takes NUMTAPS,CUTOFF[,CUTOFF2], got " + quoteExcerpt(value));
    }
    StageParameters values{{"numtaps", static_cast<std::int64_t>(wholeIn(parts[0], 1, kMaxFirwinTaps, "NUMTAPS"))},
                           {"cutoff", numberIn(parts[1], "CUTOFF")}};
    if (parts.size() == 3) values["cutoff2"] = numberIn(parts[2], "CUTOFF2");
    return values;
  }

  std::string formatValue(const StageParameters& values) const override {
    std::string text = std::to_string(wholeOf(values, "numtaps")) + "," + parameterText(values.at("cutoff"));
    if (numberOf(values, "cutoff2") != 0.0) text += "," + parameterText(values.at("cutoff2"));
    return text;
  }

  void check(const StageParameters& /*values*/) const override {}

  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override {
    FirwinSpec spec;
    spec.numtaps = static_cast<std::size_t>(wholeOf(values, "numtaps"));
    spec.cutoffs = {numberOf(values, "cutoff")};
    if (numberOf(values, "cutoff2") != 0.0) spec.cutoffs.push_back(numberOf(values, "cutoff2"));
    spec.window = textOf(values, "fir-window");
    spec.beta = numberOf(values, "beta");
    for (const FirPassZero p : kPassZeros) {
      if (toString(p) == textOf(values, "pass-zero")) spec.passZero = p;
    }
    spec.sampleRate = context.sampleRate.value_or(0.0);
    std::vector<double> h = asStageError([&] { return firwinTaps(spec); });
    if (flagOf(values, "zero-phase")) return bindZeroPhaseFir(std::move(h), filtfiltPadLength(spec.numtaps, 1), context);
    return bindCausalFir(std::move(h), context);
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& firwinKind() {
  static const stages::FirwinKind kind;
  return kind;
}
}  // namespace siglab
