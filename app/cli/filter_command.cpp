// siglab-cli filter: apply one engine once and write its result, verified where engines go wrong.
#include <cstdio>
#include <iostream>
#include <memory>
#include <new>
#include <vector>

#include "all_backends.hpp"
#include "apply_messages.hpp"
#include "cancel_on_signals.hpp"
#include "commands.hpp"
#include "exit_codes.hpp"
#include "filter_streaming.hpp"
#include "job_options.hpp"
#include "siglab/errors.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/io/output_checks.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/work_bounds.hpp"
#include "terminal_progress.hpp"

namespace siglab::cli {
namespace {

struct FilterOptions : JobOptions {
  std::size_t verify = kDefaultVerifyRandom;
  bool verifyAll = false;
  StreamOptions stream;
};

int runApply(FilterOptions& o) {
  CancelOnSignals signals;  // first: probing the GPU alone may take a second
  auto computing = std::make_unique<ExitOnCancel>(signals, "filter", std::vector<std::string>{o.output}, true);
  if (const int code = checkPathsBeforeWork(o, "filter", {{"-o", o.output}}); code != kExitOk) return code;
  if (const int code = finishJob(o, "filter"); code != kExitOk) return code;
  o.job.verify = o.verify > 0;
  o.job.verifyRandom = o.verify;
  o.job.verifyAll = o.verifyAll;
  const BackendList engines = makeAllBackends(o.cudaOptions());
  try {
    if (!o.windowAfterReading) {  // a usage error shows before the file is read
      FilterBackend* const chosen[] = {chooseApplyEngine(engines, o.job).engine};
      o.job.read.hostMemory = hostMemoryFor(chosen, o.job.spec, o.job.sampleType);
    }
  } catch (const JobError& e) {
    std::cerr << "siglab-cli filter: " << e.what() << "\n";
    return kExitUsage;
  }
  if (const int code = runStreamedApply(o, o.stream, engines, signals, computing); code != kNotStreamed) return code;
  // With -o - the result goes to standard output, so every message goes to stderr.
  std::ostream& info = o.output == "-" ? std::cerr : std::cout;
  TerminalProgress progress(o.quiet);
  Signal signal;
  AppliedJob applied;
  try {
    signal = readSignal(o.job.input, o.job.read, progress.stage("reading " + o.job.input, signals.flag()));
    if (const std::string note = fitSpecToSignal(o, signal.samples.size()); !note.empty()) info << "note: " << note << "\n";
    applied = applyJob(engines, signal.samples, o.job, progress.stage("filtering", signals.flag()));
    progress.clear();
    const ApplyResult& r = applied.result;
    for (const std::string& passedOver : applied.fellBack) std::cerr << "engine: passed over " << passedOver << "\n";
    if (o.job.spec.kind != FilterKind::Correlation) std::cerr << "filter: " << describeFilter(o.job.spec) << "\n";
    std::cerr << "engine: " << r.engine << " (" << applied.why << ")" << (r.pass.note.empty() ? "" : "; " + r.pass.note)
              << "\n";
    if (const FilterBackend* used = findEngine(engines, r.engine)) describeBound(*used, o.job, r);
    if (o.job.verify) {
      describeVerification(r, o.job.spec);
      if (!r.verification.passed()) {
        std::cerr << "siglab-cli filter: " << r.engine << "'s result failed verification; " << o.output
                  << " was not written\n";
        return kExitDisagreement;
      }
    }
    computing.reset();  // from here on, cancelling removes the temporary first
    WriteOptions write;
    write.sampleRate = signal.sampleRate.value_or(write.sampleRate);
    OutputSet files;
    appendSignal(files.add(o.output, Durability::flushed, DirectOutput::spooled), r.output, write, progress.stage("writing " + o.output, signals.flag()));
    files.commit();
    progress.clear();
    info << "wrote " << o.output << ": " << r.output.size() << " samples filtered by " << r.engine << " in "
         << millis(r.pass.phases.totalMs) << " (kernel " << millis(r.pass.phases.kernelMs) << ", transfers "
         << millis(r.pass.phases.transferMs) << ")\n";
    return kExitOk;
  } catch (const Cancelled&) {
    computing.reset();  // one line only: the watcher's, or this one
    progress.clear();
    std::cerr << interruptedLine("filter", signals, {o.output}, true) << "\n";
    return signals.exitCode();
  } catch (const std::exception&) {
    progress.clear();
    return reportApplyFailure(o.job.engines, std::to_string(signal.samples.size()) + " samples with " +
                                                 std::to_string(o.job.spec.window()) + " taps");
  }
}

}  // namespace

void addFilterCommand(CLI::App& app, int& exitCode) {
  auto o = std::make_shared<FilterOptions>();
  CLI::App* cmd = app.add_subcommand("filter", "Filter a signal with one engine and write its result, verified "
                                               "against the reference formula where engines go wrong");
  addJobOptions(*cmd, *o);
  cmd->add_option("-o,--output", o->output, "Result file (- for standard output): .npy, .wav, .raw/.bin (f64), else text (one %2.16f value a line)")
      ->required();
  cmd->add_option("-e,--engine,-b,--backend", o->job.engines,
                  "auto (the fastest engine that can run the filter here; stderr says which and why) or one of "
                  "cpu-serial, cpu-parallel, cpu-running, cpu-fft, gpu-global, gpu-constant, gpu-shared, gpu-tuned, gpu-fft")
      ->capture_default_str();
  cmd->add_option("--verify", o->verify,
                  "Random outputs to recompute besides the ends and the engine's cuts; 0 skips verification")
      ->capture_default_str();
  cmd->add_flag("--verify-all", o->verifyAll,
               "A recursive filter (--butter): compare every output with a full serial pass (in bounded memory; "
               "about three serial passes) instead of stretches");
  addStreamOptions(*cmd, o->stream);
  cmd->callback([o, &exitCode] { exitCode = runApply(*o); });
}

}  // namespace siglab::cli
