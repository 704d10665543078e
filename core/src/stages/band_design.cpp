#include "band_design.hpp"

#include <cctype>
#include <cmath>
#include <cstdint>

#include "kind_values.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/filter_stage.hpp"

namespace siglab::stages {
namespace {

bool isBand(BandType type) { return type == BandType::Bandpass || type == BandType::Bandstop; }

std::string upper(std::string text) {
  for (char& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return text;
}

BandType bandOf(const StageParameters& values) { return *parseBandType(textOf(values, "type")); }

void checkCutoffCount(BandType type, bool twoCutoffs) {
  if (isBand(type) == twoCutoffs) return;
  throw StageError(isBand(type) ? std::string(toString(type)) + " needs two cutoffs: CUTOFF,CUTOFF2"
                                : std::string(toString(type)) + " takes one cutoff: CUTOFF");
}

}  // namespace

ParameterInfo decibelParameter(std::string name, std::string help) {
  ParameterInfo info = describedParameter(std::move(name), ParameterType::Number, std::move(help), std::nullopt, true);
  info.unit = "dB";
  info.min = 0;
  info.max = INFINITY;
  return info;
}

std::vector<ParameterInfo> bandParameters() {
  ParameterInfo cutoff = describedParameter("cutoff", ParameterType::Number, "the cutoff (a band's low edge)",
                                            std::nullopt, true);
  ParameterInfo cutoff2 = describedParameter("cutoff2", ParameterType::Number,
                                             "a band's high edge (bandpass, bandstop); 0 for lowpass, highpass", "0", true);
  for (ParameterInfo* c : {&cutoff, &cutoff2}) {
    c->unit = "Hz (x Nyquist without a rate)";
    c->max = INFINITY;
  }
  ParameterInfo type = describedParameter("type", ParameterType::Choice,
                                          "the band (bandpass when two cutoffs are written)", "lowpass", true);
  for (const BandType band : {BandType::Lowpass, BandType::Highpass, BandType::Bandpass, BandType::Bandstop}) {
    type.choices.emplace_back(toString(band));
  }
  return {cutoff, cutoff2, type};
}

int BandDesignKind::maxOrder() const { return family() == IirFamily::Bessel ? kMaxBesselOrder : kMaxIirOrder; }

std::vector<ParameterInfo> BandDesignKind::parameters() const {
  ParameterInfo order = describedParameter("order", ParameterType::Whole, "the filter's order", std::nullopt, true);
  order.min = 1;
  order.max = maxOrder();
  std::vector<ParameterInfo> all{order};
  for (ParameterInfo& number : designNumbers()) all.push_back(std::move(number));
  for (ParameterInfo& band : bandParameters()) all.push_back(std::move(band));
  for (ParameterInfo& after : afterValue()) all.push_back(std::move(after));
  all.push_back(describedParameter("zero-phase", ParameterType::Flag,
                                   "forward and backward (scipy.signal.sosfiltfilt), no phase shift"));
  return all;
}

StageParameters BandDesignKind::parseValue(std::string_view value) const {
  const std::vector<ParameterInfo> numbers = designNumbers();
  std::string usage = "takes ORDER";
  for (const ParameterInfo& n : numbers) usage += "," + upper(n.name);
  usage += ",CUTOFF[,CUTOFF2][,lowpass|highpass|bandpass|bandstop]";
  std::vector<std::string> parts = valueFields(value);
  const std::optional<BandType> type = parseBandType(parts.back());
  if (type) parts.pop_back();
  const std::size_t fixed = 1 + numbers.size();
  if (parts.size() < fixed + 1 || parts.size() > fixed + 2) throw StageError(usage + ", got " + quoteExcerpt(value));
  StageParameters values{{"order", static_cast<std::int64_t>(wholeIn(parts[0], 1, maxOrder(), "ORDER"))}};
  for (std::size_t k = 0; k < numbers.size(); ++k) values[numbers[k].name] = numberIn(parts[1 + k], upper(numbers[k].name));
  const bool twoCutoffs = parts.size() == fixed + 2;
  values["cutoff"] = numberIn(parts[fixed], "CUTOFF");
  const BandType band = type.value_or(twoCutoffs ? BandType::Bandpass : BandType::Lowpass);
  checkCutoffCount(band, twoCutoffs);
  if (twoCutoffs) values["cutoff2"] = numberIn(parts[fixed + 1], "CUTOFF2");
  values["type"] = std::string(toString(band));
  return values;
}

std::string BandDesignKind::formatValue(const StageParameters& values) const {
  const BandType band = bandOf(values);
  std::string text = std::to_string(wholeOf(values, "order"));
  for (const ParameterInfo& n : designNumbers()) text += "," + parameterText(values.at(n.name));
  text += "," + parameterText(values.at("cutoff"));
  if (isBand(band)) text += "," + parameterText(values.at("cutoff2"));
  if (band != BandType::Bandpass && band != BandType::Lowpass) text += "," + std::string(toString(band));
  return text;
}

void BandDesignKind::check(const StageParameters& values) const {
  checkCutoffCount(bandOf(values), numberOf(values, "cutoff2") != 0.0);
}

std::unique_ptr<BoundStage> BandDesignKind::bind(const StageParameters& values, const StageContext& context) const {
  check(values);
  IirDesign design;
  design.family = family();
  design.band.order = static_cast<int>(wholeOf(values, "order"));
  design.band.cutoff = numberOf(values, "cutoff");
  design.band.cutoff2 = numberOf(values, "cutoff2");
  design.band.type = bandOf(values);
  design.band.sampleRate = context.sampleRate.value_or(0.0);
  readDesign(values, design);
  FilterSpec spec;
  try {
    spec = makeSectionsFilter(iirSections(design), flagOf(values, "zero-phase"), describeDesign(design));
  } catch (const std::invalid_argument& e) {
    throw StageError(e.what() + std::string(context.sampleRate ? ""
                                            : " (without a rate, cutoffs are fractions of Nyquist, between 0 and 1)"));
  }
  spec.sos.design = design.band;
  if (context.samples) asStageError([&] { checkSignalLength(spec, *context.samples, ""); });
  return makeFilterStage(std::move(spec), {}, context.sampleRate);
}

}  // namespace siglab::stages
