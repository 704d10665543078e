// bessel: a Bessel/Thomson filter as second-order sections (scipy.signal.bessel, norm 'phase' by
// default, sosfilt or sosfiltfilt); --bessel ORDER,CUTOFF[,CUTOFF2][,TYPE] [norm phase|delay|mag] [zero-phase].
#include "band_design.hpp"
#include "kind_values.hpp"

namespace siglab::stages {
namespace {

constexpr BesselNorm kNorms[] = {BesselNorm::Phase, BesselNorm::Delay, BesselNorm::Mag};

class BesselKind final : public BandDesignKind {
 public:
  std::string_view name() const override { return "bessel"; }
  std::string_view summary() const override {
    return "Bessel/Thomson filter, maximally flat group delay (scipy.signal.bessel; sosfilt, or sosfiltfilt with "
           "zero-phase)";
  }
  std::string_view valueSyntax() const override { return "ORDER,CUTOFF[,CUTOFF2][,TYPE]"; }
  std::string_view exampleValue() const override { return "4,0.2"; }

 protected:
  IirFamily family() const override { return IirFamily::Bessel; }
  std::vector<ParameterInfo> afterValue() const override {
    ParameterInfo norm = describedParameter(
        "norm", ParameterType::Choice,
        "phase: the phase response is half its asymptote at the cutoff (as butter); delay: group delay 1/cutoff; "
        "mag: -3 dB at the cutoff",
        "phase");
    for (const BesselNorm n : kNorms) norm.choices.emplace_back(toString(n));
    return {norm};
  }
  void readDesign(const StageParameters& values, IirDesign& design) const override {
    for (const BesselNorm n : kNorms) {
      if (toString(n) == textOf(values, "norm")) design.norm = n;
    }
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& besselKind() {
  static const stages::BesselKind kind;
  return kind;
}
}  // namespace siglab
