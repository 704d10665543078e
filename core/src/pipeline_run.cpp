// runPipeline: bind, plan, run in memory or block by block, write only what passed.
#include "siglab/pipeline_run.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>

#include "pipeline_analysis.hpp"
#include "pipeline_ends.hpp"
#include "pipeline_steps.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/signal_formats.hpp"

namespace siglab {

bool PipelineReport::passed() const { return firstFailure() == nullptr; }

const StageReport* PipelineReport::firstFailure() const {
  for (const ChannelReport& channel : channels) {
    for (const StageReport& stage : channel.stages) {
      if (stage.verified && !stage.verification.passed()) return &stage;
    }
  }
  return nullptr;
}

namespace detail {

void tellNotes(const BoundChain& chain, const PipelineObserver& observer) {
  if (!observer.onNote) return;
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (const std::string note = chain.stages[k]->note(); !note.empty()) observer.onNote(chain.prefix(k) + note);
  }
}

void checkFileSink(const PipelineSink& sink, std::size_t channels, const PipelineObserver& observer) {
  const auto* file = std::get_if<FileSink>(&sink);
  if (!file) return;
  checkOutputHoldsChannels(file->path, file->write, channels);
  if (const std::string note = outputNote(file->path, file->write); !note.empty() && observer.onNote) {
    observer.onNote(file->path + ": " + note);
  }
}

StageContext contextFor(std::optional<std::uint64_t> samples, std::optional<double> rate, const PipelineOptions& options) {
  return StageContext{samples, rate, options.accumulator};
}

void runInMemory(const BoundChain& chain, std::span<const std::span<const double>> channels,
                 std::optional<double> rate, const std::string& name, const PipelineSink& sink,
                 const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer,
                 PipelineReport& report) {
  const auto* memory = std::get_if<MemorySink>(&sink);
  runChainInMemory(chain, channels, memory ? std::span<const std::span<double>>(memory->into) : std::span<const std::span<double>>(),
                   engines, options, observer, name, report);
  const auto* file = std::get_if<FileSink>(&sink);
  if (!file || !report.passed()) return;
  if (observer.beforeOutput) observer.beforeOutput();
  writeSink(*file, report.output, rate, observer.phase("writing " + file->path));
  report.output.clear();
  report.written = true;
}

}  // namespace detail

namespace {

using detail::BoundChain;
using detail::contextFor;
using detail::tellNotes;

bool overlap(std::span<const double> a, std::span<const double> b) {
  if (a.empty() || b.empty()) return false;
  const std::less<const double*> before;  // a total order, even for unrelated arrays
  return before(a.data(), b.data() + b.size()) && before(b.data(), a.data() + a.size());
}

// The caller's result spans, before any work: one per channel, each of the signal's length, none
// overlapping an input channel or another (the engines do not filter in place).
void checkInto(std::span<const std::span<double>> into, const ChannelSource& source, std::size_t samples) {
  if (into.size() != source.channels.size()) {
    throw StageError(std::to_string(into.size()) + " result arrays for the " + std::to_string(source.channels.size()) +
                     " channels of " + source.name + ": give one per channel");
  }
  for (std::size_t c = 0; c < into.size(); ++c) {
    const std::string which = "the result array of channel " + std::to_string(c + 1);
    if (into[c].size() != samples) {
      throw StageError(which + " holds " + std::to_string(into[c].size()) + " samples, the result " +
                       std::to_string(samples));
    }
    for (std::size_t d = 0; d < into.size(); ++d) {
      const bool overlapsInput = overlap(into[c], source.channels[d]);
      if (overlapsInput || (d != c && overlap(into[c], into[d]))) {
        throw StageError(which + " overlaps " + (overlapsInput ? "the samples of " + source.name : "another result array") +
                         ": SigLab's engines do not filter in place");
      }
    }
  }
}

PipelineReport runOnChannels(const Pipeline& pipeline, const ChannelSource& source, const PipelineSink& sink,
                             const BackendList& engines, const PipelineOptions& options,
                             const PipelineObserver& observer) {
  if (source.channels.empty()) throw StageError(source.name + " has no channel to run the pipeline on");
  detail::checkFileSink(sink, source.channels.size(), observer);
  const auto* file = std::get_if<FileSink>(&sink);
  const std::size_t samples = source.channels.front().size();
  for (const std::span<const double> channel : source.channels) {
    if (channel.size() != samples) throw StageError("the channels of " + source.name + " differ in length");
  }
  const BoundChain chain = detail::bindChain(pipeline, contextFor(samples, source.sampleRate, options), options, engines);
  const auto* memory = std::get_if<MemorySink>(&sink);
  if (memory && !memory->into.empty()) checkInto(memory->into, source, *chain.outputs.back());
  PipelineReport report;
  report.sampleRate = chain.rates.back();  // the input's, through every rate change
  StreamingCase io;
  io.inputBytes = samples * sizeof(double) * source.channels.size();
  io.samples = samples;
  io.endsInMemory = memory != nullptr;
  report.plan = detail::planChain(chain, engines, options, io);
  tellNotes(chain, observer);
  if (observer.onPlan) observer.onPlan(report.plan);
  if (!report.plan.stream) {
    detail::runInMemory(chain, source.channels, report.sampleRate, source.name, sink, engines, options, observer, report);
    return report;
  }
  if (file && source.channels.size() > 1) {  // one pass, into one file
    detail::runChannelsStreamed(chain, detail::memoryChannelEnds(source.channels, *file, source.sampleRate, source.name),
                                engines, options, observer, report);
    report.written = report.passed();
    return report;
  }
  const bool intoCaller = memory && !memory->into.empty();
  report.output.resize(file || intoCaller ? 0 : source.channels.size());
  for (std::size_t c = 0; c < source.channels.size(); ++c) {
    const detail::StreamEnds ends =
        file         ? detail::memoryToFileEnds(source.channels[c], *file, source.sampleRate, source.name)
        : intoCaller ? detail::memoryIntoEnds(source.channels[c], memory->into[c], source.name)
                     : detail::memoryEnds(source.channels[c], report.output[c], source.name);
    detail::runChainStreamed(chain, ends, engines, options, observer, report);
  }
  report.written = file && report.passed();
  return report;
}

}  // namespace

PipelineReport runPipeline(const Pipeline& pipeline, const PipelineSource& source, const PipelineSink& sink,
                           const BackendList& engines, const PipelineOptions& options,
                           const PipelineObserver& observer) {
  if (endsInAnalysis(pipeline)) return detail::runAnalysis(pipeline, source, sink, engines, options, observer);
  if (const auto* channels = std::get_if<ChannelSource>(&source)) {
    return runOnChannels(pipeline, *channels, sink, engines, options, observer);
  }
  if (const auto* memory = std::get_if<MemorySink>(&sink); memory && !memory->into.empty()) {
    throw StageError("a result into the caller's arrays needs its channels in memory, not a file");
  }
  return detail::runOnFile(pipeline, std::get<FileSource>(source), sink, engines, options, observer);
}

}  // namespace siglab
