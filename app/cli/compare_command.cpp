// siglab-cli compare: measure every chosen engine and check each against cpu-serial.
#include <iostream>

#include "all_backends.hpp"
#include "commands.hpp"
#include "comparison_table.hpp"
#include "exit_codes.hpp"
#include "job_options.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/report.hpp"

namespace siglab::cli {
namespace {

struct CompareCommandOptions : JobOptions {
  std::string report;
};

int runCompare(CompareCommandOptions& o) {
  if (const int code = finishJob(o, "compare"); code != kExitOk) return code;
  const BackendList engines = makeAllBackends(o.cudaOptions());
  try {
    selectEngines(engines, o.job.engines);
  } catch (const JobError& e) {
    std::cerr << "siglab-cli compare: --backend: " << e.what() << "\n";
    return kExitUsage;
  }
  Comparison comparison;
  Signal signal;
  try {
    signal = readSignal(o.job.input, o.job.read);
    comparison = compareEngines(engines, signal.samples, o.job);
  } catch (const InputError& e) {
    std::cerr << "siglab-cli compare: " << e.what() << "\n";
    return kExitInputOutput;
  }
  printComparisonTable(std::cout, comparison, o.job.input);
  try {
    if (!o.output.empty()) {
      WriteOptions write;
      write.sampleRate = signal.sampleRate.value_or(write.sampleRate);
      writeSignal(o.output, comparison.reference, write);
    }
    if (!o.report.empty()) writeFileAtomically(o.report, comparisonReport(comparison, o.job.input, o.report));
  } catch (const InputError& e) {
    std::cerr << "siglab-cli compare: " << e.what() << "\n";
    return kExitInputOutput;
  }
  if (!o.output.empty() || !o.report.empty()) {
    std::cout << "\nwrote " << (o.output.empty() ? "" : o.output + " (cpu-serial result)")
              << (!o.output.empty() && !o.report.empty() ? ", " : "") << o.report << "\n";
  }
  return comparison.allAgree() ? kExitOk : kExitDisagreement;
}

}  // namespace

void addCompareCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<CompareCommandOptions>();
  o->job.engines = "all";
  CLI::App* cmd = app.add_subcommand("compare", "Measure each engine on a signal, check it against cpu-serial "
                                                "and print the timings");
  addJobOptions(*cmd, *o);
  cmd->add_option("-o,--output", o->output, "Also write the cpu-serial result (formats as for filter)");
  cmd->add_option("-b,--backend", o->job.engines,
                  "Comma-separated engines (cpu-serial, cpu-parallel, cpu-running, gpu-global, gpu-constant, "
                  "gpu-shared, gpu-tuned) or all")
      ->capture_default_str();
  cmd->add_option("-r,--repeat", o->job.measure.repeats, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(CLI::Range(1, 100000));
  cmd->add_option("--report", o->report, "Also write the comparison to this file: CSV for .csv, else JSON");
  cmd->callback([o, &exitCode] { exitCode = runCompare(*o); });
}

}  // namespace siglab::cli
