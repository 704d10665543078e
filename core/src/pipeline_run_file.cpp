// runPipeline on a file: streamed where the plan says so (bound to the size the format says, or
// that reading ahead finds), else read whole and run in memory.
#include "pipeline_ends.hpp"
#include "pipeline_steps.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_stream.hpp"
#include <cstdint>
#include <memory>

namespace siglab::detail {
namespace {

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
  const std::vector<EngineChoice> order = streamEngineOrder(*chain, 0, engines, options);
  if (!order.empty() && order.front().engine->usesGpu()) read.hostMemory = options.pinnedMemory;
  return read;
}

// The chain bound to the file's stream where its size is known or reading ahead finds it, and the
// plan for it; no chain where a stage needs a size the stream cannot tell yet (in memory then).
// `opened`: the stream planning read ahead, still at its first sample, for the run to read on
// (parsing a text's first million numbers twice cost 15% of a 100M-line run).
struct StreamCase {
  std::optional<BoundChain> chain;
  StreamingPlan plan;
  std::unique_ptr<SampleStream> opened;
};

// `ends` whose first open() hands over `opened`; later ones (edges, a fallback's retry) open anew.
StreamEnds openingFirstWith(StreamEnds ends, std::unique_ptr<SampleStream> opened) {
  auto handOver = std::make_shared<std::unique_ptr<SampleStream>>(std::move(opened));
  ends.open = [handOver, open = std::move(ends.open)]() -> std::unique_ptr<SampleStream> {
    if (*handOver) return std::move(*handOver);
    return open();
  };
  return ends;
}

// `source` reads one channel; `channels`: how many the run holds (the memory it needs).
StreamCase planOnStream(const Pipeline& pipeline, const FileSource& source, std::size_t channels,
                        const BackendList& engines, const PipelineOptions& options) {
  std::unique_ptr<SampleStream> in = openSampleStream(source.path, source.read);
  std::size_t peek = 0;
  if (!in->knownSize()) {  // text: its size is known only when it is short, so read ahead first
    peek = kPeekAhead;
    in = std::make_unique<PeekedStream>(std::move(in), peek);
  }
  std::optional<std::uint64_t> size = in->knownSize();
  const std::optional<double> rate = source.read.sampleRate ? source.read.sampleRate : in->sampleRate();
  StreamCase planned;
  try {
    planned.chain = bindChain(pipeline, contextFor(size, rate, options), options, engines);
  } catch (const StageError&) {
    if (size) throw;  // a stage that cannot run on this signal
    return planned;   // a stage that needs the size before it runs (a window fitted to it): in memory
  }
  if (!size && peekFor(*planned.chain) > peek) {  // histories longer than the read-ahead
    in = std::make_unique<PeekedStream>(std::move(in), peekFor(*planned.chain));
    if ((size = in->knownSize())) planned.chain = bindChain(pipeline, contextFor(size, rate, options), options, engines);
  }
  StreamingCase io;
  io.inputBytes = inputSizeBytes(source.path);
  if (size) io.samples = *size * channels;
  planned.plan = planChain(*planned.chain, engines, options, io);
  planned.opened = std::move(in);
  return planned;
}

// A format that says its size up front, bound before it is read (where its samples go depends on
// the first stage's engine); nothing for text.
std::optional<BoundChain> bindBeforeReading(const Pipeline& pipeline, const FileSource& source,
                                            const BackendList& engines, const PipelineOptions& options) {
  const std::unique_ptr<SampleStream> in = openSampleStream(source.path, source.read);
  const std::optional<std::uint64_t> size = in->knownSize();
  if (!size) return std::nullopt;
  const std::optional<double> rate = source.read.sampleRate ? source.read.sampleRate : in->sampleRate();
  return bindChain(pipeline, contextFor(size, rate, options), options, engines);
}

// `sink` with the source's channel names and units for the file to keep (EDF's labels), unless
// the caller gave its own.
PipelineSink namedSink(const PipelineSink& sink, const ChannelsInFile& layout) {
  PipelineSink named = sink;
  if (auto* file = std::get_if<FileSink>(&named)) {
    if (file->write.channelNames.empty()) file->write.channelNames = layout.names;
    if (file->write.channelUnits.empty()) file->write.channelUnits = layout.units;
  }
  return named;
}

}  // namespace

PipelineReport runOnFile(const Pipeline& pipeline, const FileSource& source, const PipelineSink& givenSink,
                         const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer) {
  const ChannelsInFile layout = channelsInFile(source.path, source.read);
  const std::size_t channels = layout.count;
  const PipelineSink sink = namedSink(givenSink, layout);
  detail::checkFileSink(sink, channels, observer);
  // Binding and planning look at one channel: every channel has its length and rate.
  const FileSource first = channels > 1 ? oneChannelOf(source, 0) : source;
  PipelineReport report;
  report.channelNames = layout.names;
  std::optional<BoundChain> early;
  if (options.streaming != Streaming::never) {
    StreamCase planned = planOnStream(pipeline, first, channels, engines, options);
    if (planned.chain && planned.plan.stream) {
      report.plan = planned.plan;
      report.sampleRate = planned.chain->rates.back();
      tellNotes(*planned.chain, observer);
      if (observer.onPlan) observer.onPlan(report.plan);
      if (channels > 1) {
        runChannelsStreamed(*planned.chain, fileChannelEnds(source, channels, sink), engines, options, observer, report);
      } else {
        report.output.resize(std::holds_alternative<MemorySink>(sink) ? 1 : 0);
        SampleVector unused;  // a file sink's ends write no vector
        const StreamEnds ends =
            openingFirstWith(fileEnds(source, sink, report.output.empty() ? unused : report.output.front()),
                             std::move(planned.opened));
        runChainStreamed(*planned.chain, ends, engines, options, observer, report);
      }
      report.written = std::holds_alternative<FileSink>(sink) && report.passed();
      return report;
    }
    report.plan = planned.plan;
    early = std::move(planned.chain);
  }
  if (!early && options.pinnedMemory) early = bindBeforeReading(pipeline, first, engines, options);
  const FileSource memorySource{source.path, readOptionsFor(source, early, engines, options)};
  early.reset();
  ReadChannels read = readSource(memorySource, channels, observer.phase("reading " + source.path));
  const std::size_t samples = read.channels.empty() ? 0 : read.channels.front().size();
  const BoundChain chain = bindChain(pipeline, contextFor(samples, read.sampleRate, options), options, engines);
  if (report.plan.why.empty()) {
    report.plan = planChain(chain, engines, options, {samples * channels * sizeof(double), samples * channels});
  }
  report.plan.stream = false;
  report.sampleRate = chain.rates.back();  // the input's, through every rate change
  tellNotes(chain, observer);
  if (observer.onPlan) observer.onPlan(report.plan);
  std::vector<std::span<const double>> spans(read.channels.begin(), read.channels.end());
  runInMemory(chain, spans, report.sampleRate, source.path, sink, engines, options, observer, report);
  return report;
}

}  // namespace siglab::detail
