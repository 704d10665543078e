#include "filter_streaming.hpp"

#include <iostream>
#include <new>
#include <vector>

#include "apply_messages.hpp"
#include "exit_codes.hpp"
#include "option_checks.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"
#include "terminal_progress.hpp"

namespace siglab::cli {
namespace {

// The stream of INPUT; text (whose size is unknown) with its first W + 2 samples read ahead, so
// that a signal shorter than that is known and fitted as in memory, and a longer one needs no fitting.
std::unique_ptr<SampleStream> openInput(const JobOptions& o) {
  std::unique_ptr<SampleStream> in = openSampleStream(o.job.input, o.job.read);
  if (in->knownSize()) return in;
  return std::make_unique<PeekedStream>(std::move(in), o.job.spec.window() + 2);
}

}  // namespace

void addStreamOptions(CLI::App& cmd, StreamOptions& s) {
  cmd.add_option("--stream", s.mode,
                 "auto (stream block by block wherever the result is the in-memory one's bits: an exact engine, into "
                 "a file or a pipe; else in memory unless the signal would not fit), always, or never")
      ->capture_default_str()->check(oneOf({"auto", "always", "never"}));
  cmd.add_option("--stream-block", s.blockSamples, "Outputs a streamed block holds (memory: about 50 bytes each: three blocks read ahead, three being written)")
      ->capture_default_str()->check(wholeNumber(1, std::uint64_t{1} << 30, "2^30"));
}

int runStreamedApply(JobOptions& given, const StreamOptions& stream, const BackendList& engines,
                     const CancelOnSignals& signals, std::unique_ptr<ExitOnCancel>& computing) {
  const Streaming choice = stream.mode == "always"  ? Streaming::always
                           : stream.mode == "never" ? Streaming::never
                                                    : Streaming::automatic;
  StreamingCase io;
  if (choice == Streaming::never) return kNotStreamed;
  JobOptions o = given;  // fitted to the signal here; the in-memory path starts again from `given`
  std::ostream& info = o.output == "-" ? std::cerr : std::cout;
  TerminalProgress progress(o.quiet);
  std::uint64_t samples = 0;
  try {
    std::unique_ptr<SampleStream> in = openInput(o);
    io.inputBytes = inputSizeBytes(o.job.input);
    io.samples = in->knownSize();
    if (!io.samples && o.windowAfterReading) {  // text cannot say its size up front
      // In memory the size is known and the window fitted to it (a 96M-tap Gaussian on 100 lines
      // holds 199 taps); streaming is taken only when asked for, with the Gaussian built whole.
      if (choice == Streaming::automatic) return kNotStreamed;
      buildSpecOfUnknownSize(o);
      if (o.windowAfterReading) return kNotStreamed;  // a mean waits for the size, in memory
      in = openInput(o);  // peeks the built window's W + 2 samples
    }
    std::string note;
    if (io.samples) note = fitSpecToSignal(o, static_cast<std::size_t>(*io.samples));
    samples = io.samples.value_or(0);
    const std::vector<EngineChoice> order = applyEngineOrder(engines, o.job);
    const StreamingPlan plan = planStreaming(choice, *order.front().engine, o.job, io);
    if (!plan.stream) return kNotStreamed;
    if (!note.empty()) info << "note: " << note << "\n";
    std::cerr << "stream: " << plan.why << "\n";
    computing.reset();  // from here on, cancelling removes the temporary first

    StreamFilterOptions options;
    options.blockSamples = stream.blockSamples;
    std::vector<std::string> fellBack;
    for (std::size_t k = 0; k < order.size(); ++k) {
      try {
        if (k > 0) in = openInput(o);  // the next engine starts again from the first sample
        WriteOptions write;
        // Not flushed to disk before the rename (as cp, dd or numpy.save do not): still atomic (a
        // reader sees the old file or the whole new one, a failure leaves the old one), but a
        // power cut soon after may lose it. Measured on 2 GiB raw to raw: the fsync made the run
        // 1.5-2.5x slower (1.6-2.5 s against 0.95-1.15 s; cp 0.9-1.3 s), and starting the write-back
        // early (sync_file_range every 16 MiB) slower still (3.2-6 s). Uncached: an output streamed
        // because it does not fit in memory is not kept there either (see writeSome for figures).
        write.durability = Durability::uncached;
        // --rate names the rate of any input (a WAV's own included), as readSignal takes it.
        write.sampleRate = o.job.read.sampleRate.value_or(in->sampleRate().value_or(write.sampleRate));
        const auto sink = openSampleSink(o.output, write, in->knownSize());
        const StreamApplyResult s =
            streamApply(*order[k].engine, *in, o.job, *sink, options, progress.stage("filtering " + o.job.input, signals.flag()));
        samples = s.samples;
        progress.clear();
        const ApplyResult& r = s.result;
        for (const std::string& passedOver : fellBack) std::cerr << "engine: passed over " << passedOver << "\n";
        std::cerr << "engine: " << r.engine << " (" << order[k].why << ")" << (r.pass.note.empty() ? "" : "; " + r.pass.note)
                  << "\n";
        describeBound(*order[k].engine, o.job, r);
        if (o.job.verify) {
          describeVerification(r, o.job.spec);
          if (!r.verification.passed()) {
            std::cerr << "siglab-cli filter: " << r.engine << "'s result failed verification; " << o.output
                      << " was not written\n";
            return kExitDisagreement;
          }
        }
        sink->commit();
        info << "wrote " << o.output << ": " << s.samples << " samples filtered by " << r.engine << " in "
             << millis(r.pass.phases.totalMs) << " (kernel " << millis(r.pass.phases.kernelMs) << ", transfers "
             << millis(r.pass.phases.transferMs) << "), streamed in " << s.blocks << " block" << (s.blocks == 1 ? "" : "s")
             << "\n";
        return kExitOk;
      } catch (const Cancelled&) {
        throw;
      } catch (const InputError&) {
        throw;
      } catch (const std::invalid_argument&) {
        throw;
      } catch (const std::exception& e) {
        if (o.job.engines != "auto" || k + 1 == order.size()) throw;
        fellBack.push_back(std::string(order[k].engine->name()) + ": " + e.what());
      }
    }
    throw JobError("no engine can run this filter here");
  } catch (const Cancelled&) {
    progress.clear();
    std::cerr << interruptedLine("filter", signals, {o.output}, true) << "\n";
    return signals.exitCode();
  } catch (const std::exception&) {
    progress.clear();
    return reportApplyFailure(o.job.engines, std::to_string(samples) + " samples with " +
                                                 std::to_string(o.job.spec.window()) + " taps in blocks of " +
                                                 std::to_string(stream.blockSamples));
  }
}

}  // namespace siglab::cli
