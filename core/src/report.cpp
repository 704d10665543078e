#include "siglab/report.hpp"

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "siglab/filter_kinds.hpp"
#include "siglab/json_number.hpp"
#include "siglab/metrics.hpp"

namespace siglab {
namespace {

nlohmann::json timingJson(const TimingStats& t) {
  return {{"median_ms", jsonNumber(t.medianMs)}, {"min_ms", jsonNumber(t.minMs)}, {"max_ms", jsonNumber(t.maxMs)},
          {"runs", t.samples}};
}

std::string_view statusName(RunStatus status) {
  switch (status) {
    case RunStatus::Ok: return "ok";
    case RunStatus::Unavailable: return "unavailable";
    case RunStatus::Failed: return "failed";
  }
  return "failed";
}

// What the filter computes, each kind with its own parameters.
nlohmann::json parametersJson(const FilterSpec& spec) {
  switch (spec.kind) {
    case FilterKind::Correlation:
      return {{"window", spec.window()}, {"mode", toString(spec.mode)}, {"uniform_taps", spec.isUniform()}};
    case FilterKind::Median:
      return {{"window", spec.window()}, {"mode", toString(spec.mode)}};
    case FilterKind::SavitzkyGolay:
      return {{"window", spec.window()},
              {"order", spec.savgol.order},
              {"deriv", spec.savgol.deriv},
              {"mode", spec.savgol.interp ? std::string("interp") : std::string(toString(spec.mode))}};
    case FilterKind::Sos: {
      if (!spec.sos.designText.empty()) {
        return {{"design", spec.sos.designText}, {"sections", spec.sos.sections.size()}, {"zero_phase", spec.sos.zeroPhase}};
      }
      const ButterworthSpec& d = spec.sos.design;
      nlohmann::json cutoffs = nlohmann::json::array({jsonNumber(d.cutoff)});
      if (d.type == BandType::Bandpass || d.type == BandType::Bandstop) cutoffs.push_back(jsonNumber(d.cutoff2));
      return {{"order", d.order},
              {"band", toString(d.type)},
              {"cutoffs", cutoffs},
              {"cutoff_unit", d.sampleRate > 0 ? "Hz" : "fraction of Nyquist"},
              {"design_rate_hz", d.sampleRate > 0 ? jsonNumber(d.sampleRate) : nlohmann::json(nullptr)},
              {"sections", spec.sos.sections.size()},
              {"zero_phase", spec.sos.zeroPhase}};
    }
  }
  return {};
}

}  // namespace

nlohmann::json comparisonToJson(const Comparison& c, const std::string& input) {
  nlohmann::json backends = nlohmann::json::array();
  for (const auto& r : c.results) {
    nlohmann::json b = {{"name", r.name}, {"description", r.description}, {"status", statusName(r.run.status)}, {"uses_gpu", r.usesGpu}};
    if (!r.run.message.empty()) b["message"] = r.run.message;
    if (r.run.status == RunStatus::Ok) {
      b["kernel"] = timingJson(r.run.kernel);
      b["transfer"] = timingJson(r.run.transfer);
      b["total"] = timingJson(r.run.total);
      b["kernel_gb_per_s"] = jsonNumber(kernelGBs(c, r));
      b["speedup_kernel_vs_cpu_serial"] = jsonNumber(c.kernelSpeedup(r));
      b["speedup_end_to_end_vs_cpu_serial"] = jsonNumber(c.endToEndSpeedup(r));
      if (const double vsParallel = c.kernelSpeedup(r, "cpu-parallel"); vsParallel > 0.0) {
        b["speedup_kernel_vs_cpu_parallel"] = jsonNumber(vsParallel);
        b["speedup_end_to_end_vs_cpu_parallel"] = jsonNumber(c.endToEndSpeedup(r, "cpu-parallel"));
      }
      b["max_abs_diff"] = jsonNumber(r.agreement.maxAbsDiff);
      b["mismatches"] = r.agreement.mismatches;
      b["bit_identical"] = r.agreement.bitIdentical();
      b["tolerance"] = jsonNumber(r.tolerance);
      b["agrees"] = r.agrees;
    }
    backends.push_back(std::move(b));
  }
  if (!c.isFilter()) {
    return {{"input", input},
            {"samples", c.samples},
            {"window", nullptr},
            {"mode", nullptr},
            {"uniform_taps", nullptr},
            {"dtype", sampleTypeName(c.sampleType)},
            {"accumulator", c.sampleType == SampleType::f32 ? "f32" : "f64"},
            {"repeat", c.options.measure.repeats},
            {"block_size", c.options.run.blockSize},
            {"all_agree", c.allAgree()},
            {"kind", c.stageKind},
            {"filter", c.stageDescription},
            {"parameters", nlohmann::json::object()},
            {"backends", std::move(backends)}};
  }
  return {{"input", input},
          {"samples", c.samples},
          {"window", c.spec.window()},
          {"mode", toString(c.spec.mode)},
          {"uniform_taps", c.spec.isUniform()},
          {"dtype", sampleTypeName(c.sampleType)},
          {"accumulator", c.sampleType == SampleType::f32 && c.spec.accumulator == Accumulator::SampleType ? "f32" : "f64"},
          {"repeat", c.options.measure.repeats},
          {"block_size", c.options.run.blockSize},
          {"all_agree", c.allAgree()},
          {"kind", toString(c.spec.kind)},
          {"filter", describeFilter(c.spec)},
          {"parameters", parametersJson(c.spec)},
          {"backends", std::move(backends)}};
}

namespace {

bool wantsCsv(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return extension == ".csv";
}

// A CSV field in quotes, its quotes doubled.
std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

std::string chainComparisonReport(const ChainComparison& chain, const std::string& input, const std::string& path,
                                  std::optional<double> sampleRate) {
  if (chain.stages.size() == 1) return comparisonReport(chain.stages.front().comparison, input, path, sampleRate);
  std::string chainText;
  for (const StageComparison& s : chain.stages) chainText += (chainText.empty() ? "" : "; ") + s.chain;
  if (wantsCsv(path)) {
    std::string csv;
    for (std::size_t k = 0; k < chain.stages.size(); ++k) {
      const std::string part = comparisonToCsv(chain.stages[k].comparison, input);
      const std::size_t headerEnd = part.find('\n') + 1;
      if (k == 0) csv += "stage,stage_chain," + part.substr(0, headerEnd);
      std::size_t line = headerEnd;
      while (line < part.size()) {
        const std::size_t end = part.find('\n', line) + 1;
        csv += std::to_string(k + 1) + "," + quoted(chain.stages[k].chain) + "," + part.substr(line, end - line);
        line = end;
      }
    }
    return csv;
  }
  nlohmann::json stages = nlohmann::json::array();
  for (std::size_t k = 0; k < chain.stages.size(); ++k) {
    nlohmann::json stage = {{"stage", k + 1}, {"label", chain.stages[k].label}, {"chain", chain.stages[k].chain}};
    stage.update(comparisonToJson(chain.stages[k].comparison, input));
    stages.push_back(std::move(stage));
  }
  return nlohmann::json{{"input", input},
                        {"chain", chainText},
                        {"all_agree", chain.allAgree()},
                        {"sample_rate_hz", sampleRate ? jsonNumber(*sampleRate) : nlohmann::json(nullptr)},
                        {"stages", std::move(stages)}}
             .dump(2) + "\n";
}

std::string comparisonReport(const Comparison& comparison, const std::string& input, const std::string& path,
                             std::optional<double> sampleRate) {
  if (wantsCsv(path)) return comparisonToCsv(comparison, input);
  nlohmann::json json = comparisonToJson(comparison, input);
  json["sample_rate_hz"] = sampleRate ? jsonNumber(*sampleRate) : nlohmann::json(nullptr);
  return json.dump(2) + "\n";
}

}  // namespace siglab
