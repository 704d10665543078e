// runPipeline: bind, plan, run in memory or block by block, write only what passed.
#include "siglab/pipeline_run.hpp"

#include <algorithm>

#include "pipeline_ends.hpp"
#include "pipeline_steps.hpp"
#include "siglab/io/channel_io.hpp"

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

StageContext contextFor(std::optional<std::uint64_t> samples, std::optional<double> rate, const PipelineOptions& options) {
  return StageContext{samples, rate, options.accumulator};
}

void runInMemory(const BoundChain& chain, std::span<const std::span<const double>> channels,
                 std::optional<double> rate, const std::string& name, const PipelineSink& sink,
                 const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer,
                 PipelineReport& report) {
  runChainInMemory(chain, channels, engines, options, observer, name, report);
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

PipelineReport runOnChannels(const Pipeline& pipeline, const ChannelSource& source, const PipelineSink& sink,
                             const BackendList& engines, const PipelineOptions& options,
                             const PipelineObserver& observer) {
  if (source.channels.empty()) throw StageError(source.name + " has no channel to run the pipeline on");
  const auto* file = std::get_if<FileSink>(&sink);
  if (file) checkOutputHoldsChannels(file->path, file->write, source.channels.size());
  const std::size_t samples = source.channels.front().size();
  for (const std::span<const double> channel : source.channels) {
    if (channel.size() != samples) throw StageError("the channels of " + source.name + " differ in length");
  }
  const BoundChain chain = detail::bindChain(pipeline, contextFor(samples, source.sampleRate, options), options, engines);
  PipelineReport report;
  report.sampleRate = source.sampleRate;
  StreamingCase io;
  io.inputBytes = samples * sizeof(double) * source.channels.size();
  io.samples = samples;
  report.plan = detail::planChain(chain, engines, options, io);
  tellNotes(chain, observer);
  if (observer.onPlan) observer.onPlan(report.plan);
  if (!report.plan.stream) {
    detail::runInMemory(chain, source.channels, source.sampleRate, source.name, sink, engines, options, observer, report);
    return report;
  }
  if (file && source.channels.size() > 1) {  // one pass, into one file
    detail::runChannelsStreamed(chain, detail::memoryChannelEnds(source.channels, *file, source.sampleRate, source.name),
                                engines, options, observer, report);
    report.written = report.passed();
    return report;
  }
  report.output.resize(file ? 0 : source.channels.size());
  for (std::size_t c = 0; c < source.channels.size(); ++c) {
    const detail::StreamEnds ends =
        file ? detail::memoryToFileEnds(source.channels[c], *file, source.sampleRate, source.name)
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
  if (const auto* channels = std::get_if<ChannelSource>(&source)) {
    return runOnChannels(pipeline, *channels, sink, engines, options, observer);
  }
  return detail::runOnFile(pipeline, std::get<FileSource>(source), sink, engines, options, observer);
}

}  // namespace siglab
