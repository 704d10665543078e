// siglab-cli compare: each stage's engines measured and checked against cpu-serial, the stage (or
// each stage of a chain in turn) from the same options as filter; core's compareChain does the work.
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
#include "siglab/job.hpp"
#include "siglab/pipeline_run.hpp"
#include "siglab/report.hpp"
#include "siglab/stage_comparison.hpp"
#include "siglab/work_bounds.hpp"
#include "stage_options.hpp"
#include "terminal_progress.hpp"
#include "notes.hpp"

namespace siglab::cli {
namespace {

struct CompareCommandOptions : JobOptions {
  std::string report;
  PipelineChoice pipeline;
  CLI::Option* outputOption = nullptr;  // given, even as "": then checked (an empty name is refused)
  CLI::Option* reportOption = nullptr;
};

// Page-locked memory for the samples when a chosen GPU engine can run the first stage (its
// transfers then run at full link speed, as filter's do); nullptr otherwise.
std::pmr::memory_resource* hostMemoryForFirstStage(const Pipeline& pipeline, const std::vector<FilterBackend*>& chosen,
                                                  const JobOptions& o) {
  try {
    const auto stage = bindStage(pipeline.stages.front(), 1, StageContext{std::nullopt, o.read.sampleRate, o.accumulator()});
    if (const FilterSpec* spec = stage->filterSpec()) return hostMemoryFor(chosen, *spec, o.sampleType);
  } catch (const std::exception&) {
    // Binding to the signal, once read, names the problem.
  }
  return nullptr;
}

void printStages(std::ostream& info, const ChainComparison& chain, const std::string& input) {
  for (std::size_t k = 0; k < chain.stages.size(); ++k) {
    const StageComparison& s = chain.stages[k];
    if (chain.stages.size() > 1) info << (k ? "\n" : "") << s.label << ": " << s.chain << "\n";
    if (!s.note.empty() && !quiet()) info << "note: " << s.note << "\n";
    printComparisonTable(info, s.comparison, k == 0 ? input : "the output of stage " + std::to_string(k));
  }
}

int runCompare(CompareCommandOptions& o, const CLI::App& command) {
  std::vector<NamedPath> targets;
  if (o.outputOption->count() > 0) targets.push_back({"-o", o.output});
  if (o.reportOption->count() > 0) targets.push_back({"--report", o.report});
  std::vector<std::string> outputs;
  for (const NamedPath& t : targets) outputs.push_back(t.path);
  CancelOnSignals signals;  // first: probing the GPU alone may take a second
  auto computing = std::make_unique<ExitOnCancel>(signals, "compare", outputs);
  Pipeline pipeline;
  if (const int code = pipelineForCommand(command, o.pipeline, "compare", pipeline); code != kExitOk) return code;
  if (const int code = checkPathsBeforeWork(o, "compare", targets, pipelineInputs(pipeline)); code != kExitOk) return code;
  if (const int code = finishRunOptions(o, "compare"); code != kExitOk) return code;
  const BackendList engines = makeAllBackends(o.cudaOptions());
  try {
    o.read.hostMemory = hostMemoryForFirstStage(pipeline, selectEngines(engines, o.engines), o);
  } catch (const JobError& e) {
    std::cerr << "siglab-cli compare: --backend: " << e.what() << "\n";
    return kExitUsage;
  }
  // With -o - or --report -, that goes to standard output, so the table goes to stderr.
  std::ostream& info = o.output == "-" || o.report == "-" ? std::cerr : std::cout;
  TerminalProgress progress(o.quiet);
  std::uint64_t samples = 0;
  try {
    SourceChannels signal = readPipelineSource(FileSource{o.input, o.read}, progress.stage("reading " + o.input, signals.flag()));
    const SampleVector& channel = signal.channels.front();
    samples = channel.size();
    StageCompareOptions options;
    options.engines = o.engines;
    options.sampleType = o.sampleType;
    options.accumulator = o.accumulator();
    options.compare = CompareOptions{o.run, o.measure};
    options.name = o.input;
    const Progress measuring = progress.stage("measuring", signals.flag());
    const ChainComparison chain = compareChain(pipeline, std::span<const double>(channel.data(), channel.size()),
                                               signal.sampleRate, engines, options, {}, measuring);
    progress.clear();
    printStages(info, chain, o.input);
    computing.reset();  // from here on, cancelling removes the temporaries first
    OutputSet files;  // the result and the report are renamed into place together, once both are complete
    if (!o.output.empty()) {
      WriteOptions write;
      write.sampleRate = signal.sampleRate.value_or(write.sampleRate);
      appendSignal(files.add(o.output), chain.stages.back().comparison.reference, write,
                   progress.stage("writing " + o.output, signals.flag()));
    }
    if (!o.report.empty()) {
      const std::string report = chainComparisonReport(chain, o.input, o.report, signal.sampleRate);
      const std::string_view pieces[] = {report};
      appendPieces(files.add(o.report), pieces, signals.progress());
    }
    files.commit();
    progress.clear();
    if (!o.output.empty() || !o.report.empty()) {
      notesBeside(o.output == "-" || o.report == "-") << "\nwrote " << (o.output.empty() ? "" : o.output + " (cpu-serial result)")
           << (!o.output.empty() && !o.report.empty() ? ", " : "") << o.report << "\n";
    }
    return chain.allAgree() ? kExitOk : kExitDisagreement;
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
  } catch (const StageError& e) {
    progress.clear();
    std::cerr << "siglab-cli compare: " << namedStageMessage(o.pipeline, pipeline, e.what()) << "\n";
    return kExitUsage;
  } catch (const std::invalid_argument& e) {
    progress.clear();
    std::cerr << "siglab-cli compare: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::bad_alloc&) {
    progress.clear();
    std::cerr << "siglab-cli compare: not enough memory for comparing engines on " << samples << " samples\n";
    return kExitUsage;
  } catch (const std::runtime_error& e) {  // a stage before the last failed its check
    progress.clear();
    std::cerr << "siglab-cli compare: " << e.what() << "\n";
    return kExitDisagreement;
  }
}

}  // namespace

void addCompareCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<CompareCommandOptions>();
  o->engines = "all";
  CLI::App* cmd = app.add_subcommand("compare", "Measure each engine of a stage (or of each stage of a chain in turn) on a "
                                                "signal, check it against cpu-serial and print the timings");
  addJobOptions(*cmd, *o);
  addPipelineOptions(*cmd, o->pipeline);
  o->outputOption = cmd->add_option("-o,--output", o->output,
                                    "Also write the cpu-serial result of the (last) stage (formats as for filter)");
  describeWithEngineNames(cmd->add_option("-b,--backend", o->engines)->capture_default_str(), "Comma-separated engines (",
                          ") or all");
  cmd->add_option("-r,--repeat", o->measure.repeats, "Timed runs after one warm-up; the median is shown")
      ->capture_default_str()->check(wholeNumber(1, kMaxRepeats));
  o->reportOption = cmd->add_option("--report", o->report,
                  "Also write the comparison to this file (- for standard output): CSV for .csv, else JSON; "
                  "a chain's has a section per stage");
  cmd->callback([o, cmd, &exitCode] { exitCode = runCompare(*o, *cmd); });
}

}  // namespace siglab::cli
