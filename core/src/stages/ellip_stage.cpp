// ellip: an elliptic (Cauer) filter as second-order sections (scipy.signal.ellip, sosfilt or
// sosfiltfilt); --ellip ORDER,RP,RS,CUTOFF[,CUTOFF2][,TYPE] [zero-phase].
#include "band_design.hpp"
#include "kind_values.hpp"

namespace siglab::stages {
namespace {

class EllipKind final : public BandDesignKind {
 public:
  std::string_view name() const override { return "ellip"; }
  std::string_view summary() const override {
    return "elliptic filter, RP dB of passband ripple, RS dB down in the stopband (scipy.signal.ellip; sosfilt, or "
           "sosfiltfilt with zero-phase)";
  }
  std::string_view valueSyntax() const override { return "ORDER,RP,RS,CUTOFF[,CUTOFF2][,TYPE]"; }
  std::string_view exampleValue() const override { return "4,1,40,0.2"; }

 protected:
  IirFamily family() const override { return IirFamily::Elliptic; }
  std::vector<ParameterInfo> designNumbers() const override {
    return {decibelParameter("rp", "the passband's ripple, peak to peak (above 0)"),
            decibelParameter("rs", "the stopband's least attenuation (above 0)")};
  }
  void readDesign(const StageParameters& values, IirDesign& design) const override {
    design.passRipple = numberOf(values, "rp");
    design.stopAttenuation = numberOf(values, "rs");
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& ellipKind() {
  static const stages::EllipKind kind;
  return kind;
}
}  // namespace siglab
