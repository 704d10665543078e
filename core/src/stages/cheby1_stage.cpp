// cheby1: a Chebyshev type I filter as second-order sections (scipy.signal.cheby1, sosfilt or
// sosfiltfilt); --cheby1 ORDER,RP,CUTOFF[,CUTOFF2][,TYPE] [zero-phase].
#include "band_design.hpp"
#include "kind_values.hpp"

namespace siglab::stages {
namespace {

class Cheby1Kind final : public BandDesignKind {
 public:
  std::string_view name() const override { return "cheby1"; }
  std::string_view summary() const override {
    return "Chebyshev type I filter, RP dB of passband ripple (scipy.signal.cheby1; sosfilt, or sosfiltfilt with "
           "zero-phase)";
  }
  std::string_view valueSyntax() const override { return "ORDER,RP,CUTOFF[,CUTOFF2][,TYPE]"; }
  std::string_view exampleValue() const override { return "4,1,0.2"; }

 protected:
  IirFamily family() const override { return IirFamily::Chebyshev1; }
  std::vector<ParameterInfo> designNumbers() const override {
    return {decibelParameter("rp", "the passband's ripple, peak to peak (above 0)")};
  }
  void readDesign(const StageParameters& values, IirDesign& design) const override {
    design.passRipple = numberOf(values, "rp");
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& cheby1Kind() {
  static const stages::Cheby1Kind kind;
  return kind;
}
}  // namespace siglab
