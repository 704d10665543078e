// siglab-cli filter: run a pipeline (one stage, --chain or --pipeline) through core's runPipeline
// and present what it reports; no planning, fallback or checking here.
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>
#include <vector>

#include "all_backends.hpp"
#include "apply_messages.hpp"
#include "cancel_on_signals.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "job_options.hpp"
#include "notes.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channels.hpp"
#include "siglab/pipeline_run.hpp"
#include "stage_options.hpp"
#include "stream_options.hpp"
#include "terminal_progress.hpp"

namespace siglab::cli {
namespace {

struct FilterOptions : JobOptions {
  std::size_t verify = kDefaultVerifyRandom;
  bool verifyAll = false;
  StreamOptions stream;
  PipelineChoice pipeline;
  unsigned bits = 0;  // the output's sample width where its format has a choice
};

// -e NAME runs every stage on NAME (or auto); -e "auto;cpu-serial" names each stage's in turn.
std::vector<std::string> stageEngines(const std::string& given, std::size_t stages) {
  std::vector<std::string> names;
  std::stringstream list(given);
  for (std::string name; std::getline(list, name, ';');) names.push_back(name.empty() ? "auto" : name);
  if (names.size() <= 1) return std::vector<std::string>(stages, names.empty() ? "auto" : names.front());
  if (names.size() != stages) {
    throw StageError("--engine names " + std::to_string(names.size()) + " engines for " + std::to_string(stages) +
                     " stages; give one for every stage, or one for all");
  }
  return names;
}

PipelineOptions runOptions(const FilterOptions& o, std::size_t stages) {
  PipelineOptions options;
  options.engines = stageEngines(o.engines, stages);
  options.sampleType = o.sampleType;
  options.accumulator = o.accumulator();
  options.run = o.run;
  options.pinnedMemory = pinnedHostMemory();
  options.verify = o.verify > 0;
  options.verifyRandom = o.verify;
  options.verifyAll = o.verifyAll;
  options.streaming = o.stream.streaming();
  options.blockSamples = o.stream.blockSamples;
  return options;
}

// "stage 2 (median)" for each stage of a chain; "" for one stage, whose lines are today's.
std::string stageLabelOf(const Pipeline& pipeline, std::size_t k) {
  return pipeline.stages.size() == 1 ? std::string() : stageLabel(k + 1, *pipeline.stages[k].kind);
}

// What ran, per channel and stage; kExitDisagreement when a check failed (nothing was written then).
int presentReport(const FilterOptions& o, const Pipeline& pipeline, const PipelineReport& report) {
  std::ostream& info = notesBeside(o.output == "-");
  for (std::size_t c = 0; c < report.channels.size(); ++c) {
    const std::vector<StageReport>& stages = report.channels[c].stages;
    for (std::size_t k = 0; k < stages.size(); ++k) {
      const std::string label = stageLabelOf(pipeline, k);
      describeStage(stages[k], report.channels.size() > 1
                                   ? "channel " + channelLabel(c, report.channelNames) + (label.empty() ? "" : ", " + label)
                                   : label);
      if (stages[k].verified && !stages[k].verification.passed()) {
        std::cerr << "siglab-cli filter: " << (label.empty() ? "" : label + ": ") << stages[k].engine
                  << "'s result failed verification; " << o.output << " was not written\n";
        return kExitDisagreement;
      }
    }
  }
  if (!report.wrote.empty()) {  // an analysis stage: a matrix or a table, not samples
    info << "wrote " << o.output << ": " << report.wrote << "\n";
    return kExitOk;
  }
  const std::vector<StageReport>& stages = report.channels.front().stages;
  PhaseTimes total;
  for (const StageReport& s : stages) {
    total.totalMs += s.pass.phases.totalMs;
    total.kernelMs += s.pass.phases.kernelMs;
    total.transferMs += s.pass.phases.transferMs;
  }
  info << "wrote " << o.output << ": " << report.samples << " samples "
       << (report.channels.size() > 1 ? "x " + std::to_string(report.channels.size()) + " channels " : "")
       << (stages.size() == 1 ? "filtered by " + stages.front().engine : "through " + std::to_string(stages.size()) + " stages")
       << " in " << millis(total.totalMs) << " (kernel " << millis(total.kernelMs) << ", transfers "
       << millis(total.transferMs) << ")";
  if (report.plan.stream) info << ", streamed in " << report.blocks << " block" << (report.blocks == 1 ? "" : "s");
  info << "\n";
  return kExitOk;
}

WriteOptions outputOptions(const FilterOptions& o) {
  WriteOptions write;
  write.bits = o.bits;
  return write;
}

int runFilter(FilterOptions& o, const CLI::App& command) {
  CancelOnSignals signals;  // first: probing the GPU alone may take a second
  auto computing = std::make_unique<ExitOnCancel>(signals, "filter", std::vector<std::string>{o.output}, true);
  Pipeline pipeline;
  if (const int code = pipelineForCommand(command, o.pipeline, "filter", pipeline); code != kExitOk) return code;
  if (const int code = checkPathsBeforeWork(o, "filter", {{"-o", o.output}}, pipelineInputs(pipeline)); code != kExitOk) {
    return code;
  }
  if (const int code = finishRunOptions(o, "filter"); code != kExitOk) return code;
  PipelineOptions options;
  try {
    options = runOptions(o, pipeline.stages.size());
  } catch (const StageError& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  }
  std::ostream& info = notesBeside(o.output == "-");
  TerminalProgress progress(o.quiet);
  PipelineObserver observer;
  observer.cancel = signals.flag();
  observer.progressFor = [&](const std::string& phase) { return progress.stage(phase, signals.flag()); };
  observer.onNote = [&](const std::string& note) { info << "note: " << note << "\n"; };
  observer.onPlan = [&](const StreamingPlan& plan) {
    if (plan.stream) notes() << "stream: " << plan.why << "\n";
  };
  observer.beforeOutput = [&] { computing.reset(); };  // from here on, cancelling removes the temporary first
  const BackendList engines = makeAllBackends(o.cudaOptions());
  try {
    const PipelineReport report = runPipeline(pipeline, FileSource{o.input, o.read}, FileSink{o.output, outputOptions(o)},
                                              engines, options, observer);
    progress.clear();
    return presentReport(o, pipeline, report);
  } catch (const Cancelled&) {
    computing.reset();  // one line only: the watcher's, or this one
    progress.clear();
    std::cerr << interruptedLine("filter", signals, {o.output}, true) << "\n";
    return signals.exitCode();
  } catch (const StageError& e) {
    progress.clear();
    std::cerr << "siglab-cli filter: " << namedStageMessage(o.pipeline, pipeline, e.what()) << "\n";
    return kExitUsage;
  } catch (const std::exception&) {
    progress.clear();
    return reportApplyFailure(o.engines, "the signal of " + o.input);
  }
}

}  // namespace

void addFilterCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<FilterOptions>();
  CLI::App* cmd = app.add_subcommand("filter", "Filter a signal through one stage or a chain of stages and write the "
                                               "result, each stage verified against the reference formula");
  addJobOptions(*cmd, *o);
  addPipelineOptions(*cmd, o->pipeline);
  cmd->add_option("-o,--output", o->output, "Result file (- for standard output): .npy, .wav, .flac, .raw/.bin (f64), .csv, else text (one %2.16f value a line); every channel of the input (text: one only)")
      ->required();
  describeWithEngineNames(cmd->add_option("-e,--engine,-b,--backend", o->engines)->capture_default_str(),
                          "auto (the fastest engine that can run each stage here; stderr says which and why) or one of ",
                          "; a chain takes one for every stage, separated by ';' (\"auto;cpu-serial\")");
  cmd->add_option("--verify", o->verify,
                  "Random outputs to recompute besides the ends and the engine's cuts; 0 skips verification")
      ->capture_default_str();
  cmd->add_flag("--verify-all", o->verifyAll,
               "A recursive filter (--butter): compare every output with a full serial pass (in bounded memory; "
               "about three serial passes) instead of stretches");
  cmd->add_option("--bits", o->bits,
                  "Sample width of the output where its format offers one: WAV 32 (default) or 64-bit float; FLAC 24 "
                  "(default) or 16-bit integers (FLAC quantises: a note says so)");
  addStreamOptions(*cmd, o->stream);
  cmd->callback([o, cmd, &exitCode] { exitCode = runFilter(*o, *cmd); });
}

}  // namespace siglab::cli
