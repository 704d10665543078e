#include <algorithm>

#include <nlohmann/json.hpp>

#include "siglab/report.hpp"

namespace siglab {
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
  // Each column is a field of a backend's JSON object; "kernel.median_ms" is /kernel/median_ms.
  static const char* const kColumns[] = {"name", "status", "message", "kernel.median_ms", "kernel.min_ms",
                                         "kernel.max_ms", "transfer.median_ms", "total.median_ms", "total.min_ms",
                                         "total.max_ms", "speedup_kernel_vs_cpu_serial",
                                         "speedup_end_to_end_vs_cpu_serial", "speedup_kernel_vs_cpu_parallel",
                                         "speedup_end_to_end_vs_cpu_parallel", "uses_gpu", "kernel_gb_per_s",
                                         "max_abs_diff", "mismatches",
                                         "bit_identical", "agrees"};
  std::string csv = "input,samples,window,mode,dtype,repeat";
  for (const char* column : kColumns) (csv += ',') += column;
  csv += ",kind,filter\n";
  for (const auto& backend : report["backends"]) {
    for (const char* key : {"input", "samples", "window", "mode", "dtype", "repeat"}) {
      if (csv.back() != '\n') csv += ',';
      csv += field(report[key]);
    }
    for (std::string column : kColumns) {
      std::replace(column.begin(), column.end(), '.', '/');
      const nlohmann::json::json_pointer pointer("/" + column);
      csv += ',';
      if (backend.contains(pointer)) csv += field(backend[pointer]);
    }
    csv += ',' + field(report["kind"]) + ',' + field(report["filter"]) + '\n';
  }
  return csv;
}

}  // namespace siglab
