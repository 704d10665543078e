// cheby2: a Chebyshev type II filter as second-order sections (scipy.signal.cheby2, sosfilt or
// sosfiltfilt); --cheby2 ORDER,RS,CUTOFF[,CUTOFF2][,TYPE] [zero-phase].
#include "band_design.hpp"
#include "kind_values.hpp"

namespace siglab::stages {
namespace {

class Cheby2Kind final : public BandDesignKind {
 public:
  std::string_view name() const override { return "cheby2"; }
  std::string_view summary() const override {
    return "Chebyshev type II filter, RS dB down in the stopband (scipy.signal.cheby2; sosfilt, or sosfiltfilt with "
           "zero-phase)";
  }
  std::string_view valueSyntax() const override { return "ORDER,RS,CUTOFF[,CUTOFF2][,TYPE]"; }
  std::string_view exampleValue() const override { return "4,40,0.2"; }

 protected:
  IirFamily family() const override { return IirFamily::Chebyshev2; }
  std::vector<ParameterInfo> designNumbers() const override {
    return {decibelParameter("rs", "the stopband's least attenuation (above 0)")};
  }
  void readDesign(const StageParameters& values, IirDesign& design) const override {
    design.stopAttenuation = numberOf(values, "rs");
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& cheby2Kind() {
  static const stages::Cheby2Kind kind;
  return kind;
}
}  // namespace siglab
