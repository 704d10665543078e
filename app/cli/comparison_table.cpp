#include "comparison_table.hpp"

#include "siglab/filter_kinds.hpp"

#include <cstdio>
#include <string>

namespace siglab::cli {
namespace {

std::string format(const char* pattern, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, pattern, value);
  return buffer;
}

std::string statusText(const BackendResult& r) {
  switch (r.run.status) {
    case RunStatus::Ok: return r.agrees ? "ok" : "DIFFERS";
    case RunStatus::Unavailable: return "unavailable";
    case RunStatus::Failed: return "FAILED";
  }
  return "?";
}

}  // namespace

void printComparisonTable(std::ostream& out, const Comparison& c, const std::string& input) {
  const BackendResult* parallel = c.find("cpu-parallel");
  const bool withParallel = parallel && parallel->run.status == RunStatus::Ok;
  out << "input: " << input << ", " << c.samples << " samples\n"
      << "filter: "
      << (!c.isFilter() ? c.stageDescription
          : c.spec.kind == FilterKind::Correlation
              ? "window " + std::to_string(c.spec.window()) + (c.spec.isUniform() ? " (mean)" : "") + ", boundary " +
                    std::string(toString(c.spec.mode))
              : describeFilter(c.spec))
      << ", " << sampleTypeName(c.sampleType) << " samples, block size " << c.options.run.blockSize
      << "\n"
      << "timing: median of " << c.options.measure.repeats << " runs after a warm-up; speedups against cpu-serial"
      << (withParallel ? " and cpu-parallel" : "") << "\n\n";
  char line[320];
  std::snprintf(line, sizeof line, "%-14s %-11s %11s %12s %11s %13s %12s%s %11s  %s\n", "backend", "status",
                "kernel ms", "transfer ms", "total ms", "speedup kern", "speedup e2e",
                withParallel ? "  vs par kern   vs par e2e" : "", "max |diff|", "bit-identical");
  out << line;
  for (const BackendResult& r : c.results) {
    if (r.run.status != RunStatus::Ok) {
      std::snprintf(line, sizeof line, "%-14s %-11s ", r.name.c_str(), statusText(r).c_str());
      out << line << r.run.message << "\n";
      continue;
    }
    const std::string vsParallel = withParallel ? format("%13.2fx", c.kernelSpeedup(r, "cpu-parallel")) +
                                                      format("%12.2fx", c.endToEndSpeedup(r, "cpu-parallel"))
                                                : "";
    std::snprintf(line, sizeof line, "%-14s %-11s %11.4f %12.4f %11.4f %13s %12s%s %11.3g  %s\n", r.name.c_str(),
                  statusText(r).c_str(), r.run.kernel.medianMs, r.run.transfer.medianMs, r.run.total.medianMs,
                  format("%.2fx", c.kernelSpeedup(r)).c_str(), format("%.2fx", c.endToEndSpeedup(r)).c_str(),
                  vsParallel.c_str(), r.agreement.maxAbsDiff, r.agreement.bitIdentical() ? "yes" : "no");
    out << line;
  }
  for (const BackendResult& r : c.results) {
    if (r.run.status == RunStatus::Ok && !r.agrees) {
      out << "\n" << r.name << " disagrees with cpu-serial: " << r.agreement.mismatches
          << " samples differ, first at index " << r.agreement.firstMismatch << "\n";
    }
  }
}

}  // namespace siglab::cli
