#pragma once
// How a given filter binds (lfilter, filtfilt, sosfilt, sosfiltfilt, firwin, iirnotch, iirpeak):
// an FIR becomes taps the correlation engines run, an IIR second-order sections.
#include <memory>
#include <string>
#include <vector>

#include "siglab/stage.hpp"
#include "siglab/transfer_function.hpp"

namespace siglab::stages {

// lfilter(h, 1, x): a correlation with h reversed then M - 1 zeros, zero padding (M = h's size).
std::unique_ptr<BoundStage> bindCausalFir(std::vector<double> h, const StageContext& context);

// filtfilt(h, 1, x) with its default odd padding of `padLength` samples: the correlation with h's
// autocorrelation over the signal oddly extended (zero_phase_fir.cpp). Needs more than padLength samples.
std::unique_ptr<BoundStage> bindZeroPhaseFir(std::vector<double> h, std::size_t padLength, const StageContext& context);

// lfilter(b, a, x) or filtfilt(b, a, x): an FIR as above, an IIR as tf2sos's sections (sosfilt,
// or sosfiltfilt, whose padding is then filtfilt's). Refuses an unstable filter.
std::unique_ptr<BoundStage> bindTransferFunction(const std::vector<double>& b, const std::vector<double>& a,
                                                 bool zeroPhase, const StageContext& context);

// Sections run by sosfilt or sosfiltfilt, described by `text`.
std::unique_ptr<BoundStage> bindSections(Sections sections, bool zeroPhase, std::string text, const StageContext& context);

}  // namespace siglab::stages

namespace siglab::stages {

// lfilter and filtfilt: B_FILE,A_FILE, two files of coefficients, one a line.
class TransferFunctionKind : public StageKind {
 public:
  std::string_view valueSyntax() const override { return "B_FILE,A_FILE"; }
  std::string_view exampleValue() const override { return "b.txt,a.txt"; }
  std::vector<ParameterInfo> parameters() const override;
  StageParameters parseValue(std::string_view value) const override;
  std::string formatValue(const StageParameters& values) const override;
  void check(const StageParameters& values) const override;
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override;

 protected:
  virtual bool zeroPhase() const = 0;
};

// sosfilt and sosfiltfilt: SOS_FILE, one section a line as numpy.savetxt writes an sos array.
class SectionsFileKind : public StageKind {
 public:
  std::string_view valueSyntax() const override { return "SOS_FILE"; }
  std::string_view exampleValue() const override { return "sos.txt"; }
  std::vector<ParameterInfo> parameters() const override;
  StageParameters parseValue(std::string_view value) const override;
  std::string formatValue(const StageParameters& values) const override;
  void check(const StageParameters& values) const override;
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override;

 protected:
  virtual bool zeroPhase() const = 0;
};

}  // namespace siglab::stages

namespace siglab::stages {

// iirnotch and iirpeak: W0,Q (w0 in Hz with a rate, else x Nyquist), one section.
class NotchPeakKind : public StageKind {
 public:
  std::string_view valueSyntax() const override { return "W0,Q"; }
  std::string_view exampleValue() const override { return "0.2,30"; }
  std::vector<ParameterInfo> parameters() const override;
  StageParameters parseValue(std::string_view value) const override;
  std::string formatValue(const StageParameters& values) const override;
  void check(const StageParameters& /*values*/) const override {}
  std::unique_ptr<BoundStage> bind(const StageParameters& values, const StageContext& context) const override;

 protected:
  virtual bool peak() const = 0;
};

}  // namespace siglab::stages
