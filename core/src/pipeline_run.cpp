// runPipeline: bind, plan, run in memory or block by block, write only what passed.
#include "siglab/pipeline_run.hpp"

#include <algorithm>

#include "pipeline_ends.hpp"
#include "pipeline_steps.hpp"

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

namespace {

using detail::BoundChain;

void tellNotes(const BoundChain& chain, const PipelineObserver& observer) {
  if (!observer.onNote) return;
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (const std::string note = chain.stages[k]->note(); !note.empty()) observer.onNote(chain.prefix(k) + note);
  }
}

StageContext contextFor(std::optional<std::uint64_t> samples, std::optional<double> rate, const PipelineOptions& options) {
  return StageContext{samples, rate, options.accumulator};
}

// In memory, from channels already there, into the sink.
void runInMemory(const BoundChain& chain, std::span<const std::span<const double>> channels,
                 std::optional<double> rate, const std::string& name, const PipelineSink& sink,
                 const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer,
                 PipelineReport& report) {
  detail::runChainInMemory(chain, channels, engines, options, observer, name, report);
  const auto* file = std::get_if<FileSink>(&sink);
  if (!file || !report.passed()) return;
  if (observer.beforeOutput) observer.beforeOutput();
  detail::writeSink(*file, report.output, rate, observer.phase("writing " + file->path));
  report.output.clear();
  report.written = true;
}

PipelineReport runOnChannels(const Pipeline& pipeline, const ChannelSource& source, const PipelineSink& sink,
                             const BackendList& engines, const PipelineOptions& options,
                             const PipelineObserver& observer) {
  if (source.channels.empty()) throw StageError(source.name + " has no channel to run the pipeline on");
  const auto* file = std::get_if<FileSink>(&sink);
  if (file && source.channels.size() != 1) {  // TODO(channels): writeChannels takes them all
    throw StageError(file->path + ": " + std::to_string(source.channels.size()) +
                     " channels; signal files hold one channel so far");
  }
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
    runInMemory(chain, source.channels, source.sampleRate, source.name, sink, engines, options, observer, report);
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

// Samples the stream of a file whose size its format does not say is read ahead (8 MiB), so that a
// shorter signal is bound to its size (a long window fitted to it, as in memory), and at least
// every stage's history, so that a signal shorter than that is too.
constexpr std::size_t kPeekAhead = (std::size_t{1} << 20) + 2;
std::size_t peekFor(const BoundChain& chain) {
  std::size_t peek = 3;
  for (const auto& stage : chain.stages) peek += stage->historyBefore().value_or(0) + stage->historyAfter().value_or(0);
  return peek;
}

// Where a file read in memory goes: page-locked memory when the first stage's first engine copies
// float64 samples to a GPU (float32 runs narrow into buffers of their own), else ordinary memory.
ReadOptions readOptionsFor(const FileSource& source, const std::optional<BoundChain>& chain,
                           const BackendList& engines, const PipelineOptions& options) {
  ReadOptions read = source.read;
  if (!options.pinnedMemory || options.sampleType != SampleType::f64 || !chain) return read;
  const std::vector<EngineChoice> order = detail::streamEngineOrder(*chain, 0, engines, options);
  if (!order.empty() && order.front().engine->usesGpu()) read.hostMemory = options.pinnedMemory;
  return read;
}

PipelineReport runOnFile(const Pipeline& pipeline, const FileSource& source, const PipelineSink& sink,
                         const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer) {
  PipelineReport report;
  std::optional<BoundChain> early;  // bound before reading where it can be: the engines' memory
  if (options.streaming != Streaming::never) {
    std::unique_ptr<SampleStream> in = openSampleStream(source.path, source.read);
    std::size_t peek = 0;
    if (!in->knownSize()) {  // text: its size is known only when it is short, so read ahead first
      peek = kPeekAhead;
      in = std::make_unique<PeekedStream>(std::move(in), peek);
    }
    std::optional<std::uint64_t> size = in->knownSize();
    const std::optional<double> rate = source.read.sampleRate ? source.read.sampleRate : in->sampleRate();
    std::optional<BoundChain> chain;
    try {
      chain = detail::bindChain(pipeline, contextFor(size, rate, options), options, engines);
    } catch (const StageError&) {
      if (size) throw;  // a stage that cannot run on this signal
      // A stage that needs the size before it runs (a window fitted to it): in memory.
    }
    if (chain && !size && peekFor(*chain) > peek) {  // histories longer than the read-ahead
      peek = peekFor(*chain);
      in = std::make_unique<PeekedStream>(std::move(in), peek);
      if ((size = in->knownSize())) chain = detail::bindChain(pipeline, contextFor(size, rate, options), options, engines);
    }
    if (chain) {
      StreamingCase io;
      io.inputBytes = inputSizeBytes(source.path);
      io.samples = size;
      const StreamingPlan plan = detail::planChain(*chain, engines, options, io);
      if (plan.stream) {
        in.reset();
        report.plan = plan;
        tellNotes(*chain, observer);
        if (observer.onPlan) observer.onPlan(plan);
        report.output.resize(std::holds_alternative<MemorySink>(sink) ? 1 : 0);
        SampleVector unused;
        const detail::StreamEnds ends =
            detail::fileEnds(source, sink, report.output.empty() ? unused : report.output.front());
        detail::runChainStreamed(*chain, ends, engines, options, observer, report);
        report.written = std::holds_alternative<FileSink>(sink) && report.passed();
        return report;
      }
      report.plan = plan;
      early = std::move(chain);
    }
  }
  if (!early && options.pinnedMemory) {  // a format that says its size up front is bound before it is read
    const std::unique_ptr<SampleStream> in = openSampleStream(source.path, source.read);
    if (const std::optional<std::uint64_t> size = in->knownSize()) {
      const std::optional<double> rate = source.read.sampleRate ? source.read.sampleRate : in->sampleRate();
      early = detail::bindChain(pipeline, contextFor(size, rate, options), options, engines);
    }
  }
  const FileSource memorySource{source.path, readOptionsFor(source, early, engines, options)};
  early.reset();
  detail::ReadChannels read = detail::readSource(memorySource, observer.phase("reading " + source.path));
  const std::size_t samples = read.channels.empty() ? 0 : read.channels.front().size();
  const BoundChain chain = detail::bindChain(pipeline, contextFor(samples, read.sampleRate, options), options, engines);
  if (report.plan.why.empty()) report.plan = detail::planChain(chain, engines, options, {samples * sizeof(double), samples});
  report.plan.stream = false;
  report.sampleRate = read.sampleRate;
  tellNotes(chain, observer);
  if (observer.onPlan) observer.onPlan(report.plan);
  std::vector<std::span<const double>> channels(read.channels.begin(), read.channels.end());
  runInMemory(chain, channels, read.sampleRate, source.path, sink, engines, options, observer, report);
  return report;
}

}  // namespace

PipelineReport runPipeline(const Pipeline& pipeline, const PipelineSource& source, const PipelineSink& sink,
                           const BackendList& engines, const PipelineOptions& options,
                           const PipelineObserver& observer) {
  if (const auto* channels = std::get_if<ChannelSource>(&source)) {
    return runOnChannels(pipeline, *channels, sink, engines, options, observer);
  }
  return runOnFile(pipeline, std::get<FileSource>(source), sink, engines, options, observer);
}

}  // namespace siglab
