#include "given_filters.hpp"

#include <algorithm>

#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/iir_design.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"
#include "siglab/spec_for_signal.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::stages {

std::unique_ptr<BoundStage> bindCausalFir(std::vector<double> h, const StageContext& context) {
  // out[i] = sum_k h[k] x[i - k]: the correlation centred on i reads x[i - M + 1 .. i + M - 1].
  std::vector<double> taps(h.rbegin(), h.rend());
  taps.resize(2 * h.size() - 1, 0.0);
  FilterSpec spec{std::move(taps), BoundaryMode::Zero};
  spec.accumulator = context.accumulator;
  std::string note;
  asStageError([&] {
    validate(spec);
    if (context.samples) note = fitSpecToSignal(spec, *context.samples, "taps");
  });
  return makeFilterStage(std::move(spec), std::move(note), context.sampleRate);
}

std::unique_ptr<BoundStage> bindSections(Sections sections, bool zeroPhase, std::string text, const StageContext& context) {
  FilterSpec spec = asStageError([&] { return makeSectionsFilter(std::move(sections), zeroPhase, std::move(text)); });
  if (context.samples) asStageError([&] { checkSignalLength(spec, *context.samples, ""); });
  return makeFilterStage(std::move(spec), {}, context.sampleRate);
}

std::unique_ptr<BoundStage> bindTransferFunction(const std::vector<double>& b, const std::vector<double>& a,
                                                 bool zeroPhase, const StageContext& context) {
  const TransferFunction tf = asStageError([&] { return normalisedTransferFunction(b, a); });
  const std::size_t padLength = filtfiltPadLength(b.size(), a.size());
  if (tf.isFir()) {
    return zeroPhase ? bindZeroPhaseFir(tf.b, padLength, context) : bindCausalFir(tf.b, context);
  }
  Sections sections = asStageError([&] { return transferFunctionSections(tf); });
  if (zeroPhase && sosfiltfiltPadLength(sections) != padLength) {
    throw StageError("filtfilt pads " + std::to_string(padLength) + " samples for these coefficients but their " +
                     std::to_string(sections.size()) +
                     " sections would pad differently (a pole and a zero at z = 0): drop a's and b's trailing zeros");
  }
  const std::string text = std::string(zeroPhase ? "filtfilt" : "lfilter") + " b (" + std::to_string(b.size()) +
                           " coefficients) / a (" + std::to_string(a.size()) + ")";
  return bindSections(std::move(sections), zeroPhase, text, context);
}

}  // namespace siglab::stages

namespace siglab::stages {

std::vector<ParameterInfo> TransferFunctionKind::parameters() const {
  return {describedParameter("b", ParameterType::Text, "a file of the numerator's coefficients b, one a line", std::nullopt, true),
          describedParameter("a", ParameterType::Text, "a file of the denominator's coefficients a, one a line (a0 first)",
                             std::nullopt, true)};
}

StageParameters TransferFunctionKind::parseValue(std::string_view value) const {
  const std::vector<std::string> parts = valueFields(value);
  if (parts.size() != 2 || parts[0].empty() || parts[1].empty()) {
    throw StageError("takes B_FILE,A_FILE (files of coefficients, one a line), got " + quoteExcerpt(value));
  }
  return {{"b", parts[0]}, {"a", parts[1]}};
}

std::string TransferFunctionKind::formatValue(const StageParameters& values) const {
  return textOf(values, "b") + "," + textOf(values, "a");
}

void TransferFunctionKind::check(const StageParameters& values) const {
  if (textOf(values, "b").empty() || textOf(values, "a").empty()) throw StageError("takes B_FILE,A_FILE");
}

std::unique_ptr<BoundStage> TransferFunctionKind::bind(const StageParameters& values, const StageContext& context) const {
  check(values);
  return bindTransferFunction(readCoefficients(textOf(values, "b")), readCoefficients(textOf(values, "a")), zeroPhase(),
                              context);
}

std::vector<ParameterInfo> SectionsFileKind::parameters() const {
  return {describedParameter("file", ParameterType::Text,
                             "a file of sections, one a line: b0 b1 b2 a0 a1 a2 (numpy.savetxt of an sos array)",
                             std::nullopt, true)};
}

StageParameters SectionsFileKind::parseValue(std::string_view value) const {
  if (value.empty()) throw StageError("takes SOS_FILE, a file of sections");
  return {{"file", std::string(value)}};
}

std::string SectionsFileKind::formatValue(const StageParameters& values) const { return textOf(values, "file"); }

void SectionsFileKind::check(const StageParameters& values) const {
  if (textOf(values, "file").empty()) throw StageError("takes SOS_FILE, a file of sections");
}

std::unique_ptr<BoundStage> SectionsFileKind::bind(const StageParameters& values, const StageContext& context) const {
  check(values);
  const std::string& path = textOf(values, "file");
  Sections sections = readSectionsFile(path);
  return bindSections(std::move(sections), zeroPhase(), std::string(name()) + " " + path, context);
}

}  // namespace siglab::stages

namespace siglab::stages {

std::vector<ParameterInfo> NotchPeakKind::parameters() const {
  ParameterInfo w0 = describedParameter("w0", ParameterType::Number, "the frequency to remove (notch) or keep (peak)",
                                        std::nullopt, true);
  w0.unit = "Hz (x Nyquist without a rate)";
  w0.max = INFINITY;
  ParameterInfo q = describedParameter("q", ParameterType::Number, "the quality factor: w0 / the -3 dB bandwidth",
                                       std::nullopt, true);
  q.max = INFINITY;
  return {w0, q, describedParameter("zero-phase", ParameterType::Flag, "forward and backward (scipy.signal.filtfilt)")};
}

StageParameters NotchPeakKind::parseValue(std::string_view value) const {
  const std::vector<std::string> parts = valueFields(value);
  if (parts.size() != 2) throw StageError("takes W0,Q, got " + quoteExcerpt(value));
  return {{"w0", numberIn(parts[0], "W0")}, {"q", numberIn(parts[1], "Q")}};
}

std::string NotchPeakKind::formatValue(const StageParameters& values) const {
  return parameterText(values.at("w0")) + "," + parameterText(values.at("q"));
}

std::unique_ptr<BoundStage> NotchPeakKind::bind(const StageParameters& values, const StageContext& context) const {
  const double w0 = numberOf(values, "w0"), q = numberOf(values, "q");
  const Section section = asStageError([&] { return notchPeakSection(w0, q, peak(), context.sampleRate.value_or(0.0)); });
  const std::string text = std::string(name()) + " w0 " + shortNumber(w0) + (context.sampleRate ? " Hz" : " x Nyquist") +
                           " Q " + shortNumber(q);
  return bindSections({section}, flagOf(values, "zero-phase"), text, context);
}

}  // namespace siglab::stages
