#include "report_csv.hpp"

#include <nlohmann/json.hpp>

#include "siglab/report.hpp"

namespace siglab::gui {
namespace {

std::string field(const nlohmann::json& value) {
  if (value.is_null()) return {};
  std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace

std::string comparisonToCsv(const Comparison& comparison, const std::string& input) {
  // Built from the JSON report so the two exports can never disagree.
  const nlohmann::json report = comparisonToJson(comparison, input);
  static const char* const kColumns[] = {"name", "status", "message", "kernel.median_ms", "kernel.min_ms",
                                         "kernel.max_ms", "transfer.median_ms", "total.median_ms", "total.min_ms",
                                         "total.max_ms", "speedup_kernel_vs_cpu_serial",
                                         "speedup_end_to_end_vs_cpu_serial", "max_abs_diff", "mismatches",
                                         "bit_identical", "agrees"};
  std::string csv = "input,samples,window,mode,repeat";
  for (const char* column : kColumns) csv += std::string(",") + column;
  csv += "\n";
  for (const auto& backend : report["backends"]) {
    csv += field(report["input"]) + "," + field(report["samples"]) + "," + field(report["window"]) + "," +
           field(report["mode"]) + "," + field(report["repeat"]);
    for (const std::string column : kColumns) {
      const auto dot = column.find('.');
      const nlohmann::json* value = &backend;
      for (const std::string& key : {column.substr(0, dot), dot == std::string::npos ? "" : column.substr(dot + 1)}) {
        if (key.empty()) continue;
        value = value->is_object() && value->contains(key) ? &(*value)[key] : nullptr;
        if (!value) break;
      }
      csv += "," + (value ? field(*value) : std::string());
    }
    csv += "\n";
  }
  return csv;
}

}  // namespace siglab::gui
