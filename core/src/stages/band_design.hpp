#pragma once
// What the IIR design stages share (cheby1, cheby2, ellip, bessel): the value
// ORDER[,RP][,RS],CUTOFF[,CUTOFF2][,TYPE] as butter reads it (cutoffs in Hz with a rate, else x
// Nyquist), the zero-phase flag, and binding to the design's sections. A kind says its family, the
// numbers it reads between ORDER and the cutoffs, and any parameter written after the value.
#include <string>
#include <vector>

#include "siglab/iir_design.hpp"
#include "siglab/stage.hpp"

namespace siglab::stages {

// CUTOFF, CUTOFF2 and TYPE as butter and the designs read them (in the value).
std::vector<ParameterInfo> bandParameters();

class BandDesignKind : public StageKind {
 public:
  std::vector<ParameterInfo> parameters() const override;
  StageParameters parseValue(std::string_view value) const override;
  std::string formatValue(const StageParameters& values) const override;
  void check(const StageParameters& values) const override;
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override;

 protected:
  virtual IirFamily family() const = 0;
  // Read after ORDER in the value, in this order: rp, rs (Number parameters, in dB).
  virtual std::vector<ParameterInfo> designNumbers() const { return {}; }
  // Written after the value (bessel's norm).
  virtual std::vector<ParameterInfo> afterValue() const { return {}; }
  // The family's own fields of the design (rp, rs, norm); the band is filled in already.
  virtual void readDesign(const StageParameters& values, IirDesign& design) const = 0;

  int maxOrder() const;
};

// A dB parameter (rp, rs) read in the value.
ParameterInfo decibelParameter(std::string name, std::string help);

}  // namespace siglab::stages
