// siglab-cli compare: measure every chosen engine and check each against cpu-serial.
#include <iostream>
#include <memory>
#include <new>
#include <string_view>
#include <vector>

#include "all_backends.hpp"
#include "cancel_on_signals.hpp"
#include "commands.hpp"
#include "comparison_table.hpp"
#include "exit_codes.hpp"
#include "job_options.hpp"
#include "option_checks.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/report.hpp"
#include "siglab/work_bounds.hpp"
#include "terminal_progress.hpp"

namespace siglab::cli {
namespace {

struct CompareCommandOptions : JobOptions {
  std::string report;
  CLI::Option* outputOption = nullptr;  // given, even as "": then checked (an empty name is refused)
  CLI::Option* reportOption = nullptr;
};

int runCompare(CompareCommandOptions& o) {
  std::vector<NamedPath> targets;
  if (o.outputOption->count() > 0) targets.push_back({"-o", o.output});
  if (o.reportOption->count() > 0) targets.push_back({"--report", o.report});
  std::vector<std::string> outputs;
  for (const NamedPath& t : targets) outputs.push_back(t.path);
  CancelOnSignals signals;  // first: probing the GPU alone may take a second
  auto computing = std::make_unique<ExitOnCancel>(signals, "compare", outputs);
  if (const int code = checkPathsBeforeWork(o, "compare", targets); code != kExitOk) return code;
  if (const int code = finishJob(o, "compare"); code != kExitOk) return code;
  const BackendList engines = makeAllBackends(o.cudaOptions());
  try {
    o.job.read.hostMemory = hostMemoryFor(selectEngines(engines, o.job.engines), o.job.spec, o.job.sampleType);
  } catch (const JobError& e) {
    std::cerr << "siglab-cli compare: --backend: " << e.what() << "\n";
    return kExitUsage;
  }
  // With -o - or --report -, that goes to standard output, so the table goes to stderr.
  std::ostream& info = o.output == "-" || o.report == "-" ? std::cerr : std::cout;
  TerminalProgress progress(o.quiet);
  Signal signal;
  try {
    signal = readSignal(o.job.input, o.job.read, progress.stage("reading " + o.job.input, signals.flag()));
    if (const std::string note = fitSpecToSignal(o, signal.samples.size()); !note.empty()) info << "note: " << note << "\n";
    const Progress measuring = progress.stage("measuring", signals.flag());
    const auto eachEngine = [&](std::size_t done, std::size_t count) {
      measuring.report(static_cast<double>(done) / static_cast<double>(count));
    };
    const Comparison comparison = compareEngines(engines, signal.samples, o.job, eachEngine, measuring);
    progress.clear();
    printComparisonTable(info, comparison, o.job.input);
    computing.reset();  // from here on, cancelling removes the temporaries first
    OutputSet files;  // the result and the report are renamed into place together, once both are complete
    if (!o.output.empty()) {
      WriteOptions write;
      write.sampleRate = signal.sampleRate.value_or(write.sampleRate);
      appendSignal(files.add(o.output), comparison.reference, write, progress.stage("writing " + o.output, signals.flag()));
    }
    if (!o.report.empty()) {
      const std::string report = comparisonReport(comparison, o.job.input, o.report, signal.sampleRate);
      const std::string_view pieces[] = {report};
      appendPieces(files.add(o.report), pieces, signals.progress());
    }
    files.commit();
    progress.clear();
    if (!o.output.empty() || !o.report.empty()) {
      info << "\nwrote " << (o.output.empty() ? "" : o.output + " (cpu-serial result)")
           << (!o.output.empty() && !o.report.empty() ? ", " : "") << o.report << "\n";
    }
    return comparison.allAgree() ? kExitOk : kExitDisagreement;
  } catch (const Cancelled&) {
    computing.reset();
    progress.clear();
    std::cerr << interruptedLine("compare", signals, outputs) << "\n";
    return signals.exitCode();
  } catch (const InputError& e) {
    progress.clear();
    std::cerr << "siglab-cli compare: " << e.what() << "\n";
    return kExitInputOutput;
  } catch (const NotEnoughMemory& e) {
    progress.clear();
    std::cerr << "siglab-cli compare: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    progress.clear();
    std::cerr << "siglab-cli compare: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    progress.clear();
    std::cerr << "siglab-cli compare: not enough memory for comparing engines on " << signal.samples.size()
              << " samples with " << o.job.spec.window() << " taps\n";
    return kExitUsage;
  }
}

}  // namespace

void addCompareCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<CompareCommandOptions>();
  o->job.engines = "all";
  CLI::App* cmd = app.add_subcommand("compare", "Measure each engine on a signal, check it against cpu-serial "
                                                "and print the timings");
  addJobOptions(*cmd, *o);
  o->outputOption = cmd->add_option("-o,--output", o->output, "Also write the cpu-serial result (formats as for filter)");
  cmd->add_option("-b,--backend", o->job.engines,
                  "Comma-separated engines (cpu-serial, cpu-parallel, cpu-running, gpu-global, gpu-constant, "
                  "gpu-shared, gpu-tuned) or all")
      ->capture_default_str();
  cmd->add_option("-r,--repeat", o->job.measure.repeats, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(wholeNumber(1, kMaxRepeats));
  o->reportOption = cmd->add_option("--report", o->report,
                  "Also write the comparison to this file (- for standard output): CSV for .csv, else JSON");
  cmd->callback([o, &exitCode] { exitCode = runCompare(*o); });
}

}  // namespace siglab::cli
