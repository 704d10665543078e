// A chain ending in an analysis stage: the stages before it run as any chain does (block by block
// or in memory), and their output goes into the analysis stage's writer instead of a signal file.
#include "pipeline_analysis.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <future>

#include "pipeline_ends.hpp"
#include "pipeline_steps.hpp"
#include "siglab/analysis_stage.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/job.hpp"
#include "siglab/stream_apply.hpp"

namespace siglab {

bool endsInAnalysis(const Pipeline& pipeline) {
  return !pipeline.stages.empty() && pipeline.stages.back().kind->endsChain();
}

void checkAnalysisEndsChain(const Pipeline& pipeline) {
  for (std::size_t k = 0; k + 1 < pipeline.stages.size(); ++k) {
    const StageKind& kind = *pipeline.stages[k].kind;
    if (!kind.endsChain()) continue;
    throw StageError(stageLabel(k + 1, kind) + ": " + std::string(kind.name()) +
                     " writes a matrix or a table, not a signal, so it must end the chain; " +
                     stageLabel(k + 2, *pipeline.stages[k + 1].kind) + " follows it");
  }
}

std::vector<std::string> AnalysisStage::engineNames(const BackendList& engines) const {
  std::vector<std::string> names{"cpu-serial", "cpu-parallel"};
  const std::optional<GpuStageWork> work = gpuWork();
  return work ? stageEngineNames(std::move(names), *work, engines, peakOptions()) : names;
}

AppliedJob AnalysisStage::applyInto(const BackendList& /*engines*/, std::span<const double> /*in*/, std::span<double> /*out*/,
                                    const StageRunOptions& /*options*/, const Progress& /*progress*/) const {
  throw StageError(describe() + " writes a matrix or a table, not a signal: it runs only at the end of a chain into a file");
}

}  // namespace siglab

namespace siglab::detail {
namespace {

// The analysis writer as the sink a streamed chain writes into (one channel, or several).
class AnalysisSampleSink final : public SampleSink {
 public:
  AnalysisSampleSink(std::unique_ptr<AnalysisWriter> writer, std::string& wrote) : writer_(std::move(writer)), wrote_(wrote) {}
  void write(std::span<const double> values) override {
    const std::span<const double> one[] = {values};
    writer_->write(one);
  }
  void commit() override { wrote_ = writer_->commit(); }

 private:
  std::unique_ptr<AnalysisWriter> writer_;
  std::string& wrote_;
};

class AnalysisChannelSink final : public ChannelSink {
 public:
  AnalysisChannelSink(std::unique_ptr<AnalysisWriter> writer, std::size_t channels, std::string& wrote)
      : writer_(std::move(writer)), channels_(channels), wrote_(wrote) {}
  std::size_t channels() const override { return channels_; }
  void commit() override { wrote_ = writer_->commit(); }

 protected:
  void writeFrames(std::span<const std::span<const double>> block) override { writer_->write(block); }

 private:
  std::unique_ptr<AnalysisWriter> writer_;
  std::size_t channels_;
  std::string& wrote_;
};

// What the analysis stage is bound to: the signal's channels, length and rate, before any work.
struct SignalShape {
  std::size_t channels = 1;
  std::optional<std::uint64_t> frames;  // unknown for text before it is read
  std::optional<double> rate;
};

SignalShape shapeOf(const FileSource& source) {
  SignalShape shape;
  shape.channels = channelCount(source.path, source.read);
  const FileSource first = shape.channels > 1 ? oneChannelOf(source, 0) : source;
  const std::unique_ptr<SampleStream> in = openSampleStream(first.path, first.read);
  shape.frames = in->knownSize();
  shape.rate = source.read.sampleRate ? source.read.sampleRate : in->sampleRate();
  return shape;
}

// The engine the run names for the analysis stage ("auto" where none), checked against the list
// before any work: cpu-serial, cpu-parallel or a GPU engine of the list.
std::string namedEngine(const Pipeline& pipeline, const PipelineOptions& options, const BackendList& engines,
                        const std::string& label) {
  const std::size_t k = pipeline.stages.size() - 1;
  const std::string engine = k < options.engines.size() ? options.engines[k] : "auto";
  if (engine == "auto" || engine == "cpu-parallel" || engine == "cpu-serial") return engine;
  const FilterBackend* listed = findEngine(engines, engine);
  if (listed && listed->usesGpu()) return engine;  // whether it runs this analysis: analysisEngine's
  throw StageError(label + std::string(pipeline.stages.back().kind->name()) +
                   " runs on cpu-serial, cpu-parallel or a GPU engine that computes it, not " + quoteExcerpt(engine));
}

// The analysis' engine and why: the named one (a GPU engine must run it here), else auto's by the
// stage engine rule over `samples` a channel.
struct AnalysisEngine {
  bool parallel = true;
  FilterBackend* gpu = nullptr;
  std::string name;
  std::string why;
};

AnalysisEngine analysisEngine(const AnalysisStage& stage, const std::string& named, const BackendList& engines,
                              std::uint64_t samples, bool streamed, const std::string& label) {
  if (named == "cpu-serial") return {false, nullptr, named, "cpu-serial named"};
  const std::optional<GpuStageWork> work = stage.gpuWork();
  if (named == "cpu-parallel" || (named == "auto" && !work)) {
    return {true, nullptr, "cpu-parallel",
            named == "cpu-parallel"           ? "cpu-parallel named"
            : !stage.streamedBound().empty() ? "auto: cpu-parallel, FFTW's threads in memory (the last bits may differ from cpu-serial's)"
                                             : "auto: cpu-parallel, the same bits as cpu-serial (each frame or peak computed alone)"};
  }
  if (named == "auto") {
    StageEngineQuestion question = stageEngineQuestion(*work, samples, engines, stage.peakOptions());
    question.streamed = streamed;
    const StageEngineAnswer answer = chooseStageEngine(question);
    return {true, answer.engine == "cpu-parallel" ? nullptr : findEngine(engines, answer.engine), answer.engine, answer.why};
  }
  FilterBackend* gpu = findEngine(engines, named);
  const std::optional<std::string> why = work ? whyNotStage(*gpu, *work, stage.peakOptions()) : std::nullopt;
  if (!why || !why->empty()) {
    throw StageError(label + stage.describe() + " cannot run on " + named + ": " +
                     (why ? *why : "it runs on the CPU only (cpu-serial, cpu-parallel)"));
  }
  return {true, gpu, named, "chosen by name"};
}

StageReport analysisReport(const AnalysisStage& stage, const Stage& kind, const AnalysisEngine& engine) {
  StageReport report;
  report.kind = std::string(kind.kind->name());
  report.description = stage.describe();
  report.engine = engine.name;
  report.why = engine.why;
  report.usesGpu = engine.gpu != nullptr;
  return report;
}

// Every channel in memory into the writer at once.
std::string writeWhole(AnalysisWriter& writer, std::span<const std::span<const double>> channels) {
  writer.write(channels);
  return writer.commit();
}

// A file with no stage before the analysis, block by block: the next block is read on a thread
// of its own while the writer transforms and writes this one (the reads overlap the work).
std::string pumpFile(const FileSource& source, std::size_t channels, AnalysisWriter& writer, std::size_t blockSamples,
                     const Progress& progress) {
  const std::size_t block = std::clamp<std::size_t>(blockSamples, 1, std::size_t{1} << 20);
  std::vector<double> buffers[2] = {std::vector<double>(channels * block), std::vector<double>(channels * block)};
  std::unique_ptr<SampleStream> one;
  std::unique_ptr<ChannelStream> several;
  if (channels == 1) one = openSampleStream(source.path, source.read);
  else several = openChannelStream(source.path, source.read);
  struct Read {
    std::size_t frames;
    double fraction;
  };
  const auto readInto = [&](std::vector<double>& buffer) {  // one reader at a time: each waits for the last
    std::vector<std::span<double>> out;
    for (std::size_t c = 0; c < channels; ++c) out.push_back(std::span(buffer).subspan(c * block, block));
    const std::size_t n = one ? one->read(out.front()) : several->read(out);
    return Read{n, one ? one->fractionRead() : several->fractionRead()};
  };
  std::vector<std::span<const double>> got(channels);
  std::future<Read> next = std::async(std::launch::async, readInto, std::ref(buffers[0]));
  for (int b = 0;; b ^= 1) {
    const Read read = next.get();
    if (read.frames == 0) break;
    next = std::async(std::launch::async, readInto, std::ref(buffers[b ^ 1]));
    for (std::size_t c = 0; c < channels; ++c) got[c] = std::span<const double>(buffers[b]).subspan(c * block, read.frames);
    writer.write(got);
    progress.report(read.fraction);
  }
  return writer.commit();
}

}  // namespace

PipelineReport runAnalysis(const Pipeline& pipeline, const PipelineSource& source, const PipelineSink& sink,
                           const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer) {
  checkAnalysisEndsChain(pipeline);
  const std::size_t count = pipeline.stages.size();
  const Stage& last = pipeline.stages.back();
  const std::string label = count > 1 ? stageLabel(count, *last.kind) + ": " : "";
  const auto* file = std::get_if<FileSink>(&sink);
  const auto* inMemory = std::get_if<MemorySink>(&sink);
  if (inMemory && !inMemory->into.empty()) {
    throw StageError(label + std::string(last.kind->name()) +
                     " makes a matrix or a table, not a signal: it cannot be written into a signal's array");
  }
  const std::string named = namedEngine(pipeline, options, engines, label);
  const bool gpuNamed = named != "auto" && named != "cpu-parallel" && named != "cpu-serial";
  const Pipeline before{{pipeline.stages.begin(), pipeline.stages.end() - 1}};
  PipelineOptions beforeOptions = options;
  if (!beforeOptions.engines.empty()) beforeOptions.engines.resize(std::min(beforeOptions.engines.size(), count - 1));

  // The signal: channels in memory (given, or read where the file does not say its length), or a file streamed.
  const auto* memory = std::get_if<ChannelSource>(&source);
  const auto* input = std::get_if<FileSource>(&source);
  SignalShape shape;
  SourceChannels read;
  std::vector<std::span<const double>> channels;
  if (memory) {
    if (memory->channels.empty()) throw StageError(memory->name + " has no channel to run the pipeline on");
    shape = {memory->channels.size(), memory->channels.front().size(), memory->sampleRate};
    channels = memory->channels;
  } else {
    shape = shapeOf(*input);
  }
  const auto bindAnalysis = [&](std::uint64_t frames) {
    std::unique_ptr<BoundStage> bound;
    try {
      bound = last.kind->bind(last.values, contextFor(frames, shape.rate, options));
      std::unique_ptr<AnalysisStage> analysis(dynamic_cast<AnalysisStage*>(bound.release()));
      if (!analysis) throw std::logic_error("an analysis kind bound to a stage that is not an analysis");
      if (file) analysis->checkOutput(file->path);
      return analysis;
    } catch (const StageError& e) {
      throw StageError(label + e.what());  // as a chain's run names its stages: not for a chain of one
    }
  };
  std::unique_ptr<AnalysisStage> analysis;
  if (shape.frames) {
    analysis = bindAnalysis(*shape.frames);
  }

  PipelineReport report;
  report.sampleRate = shape.rate;
  const auto started = std::chrono::steady_clock::now();
  std::string why = analysis ? analysis->whyNotStreamed() : "";
  std::optional<BoundChain> chain;
  std::optional<std::uint64_t> inputFrames = shape.frames;  // the file's; shape.frames becomes the chain's output
  if (input && shape.frames && count > 1) {
    chain = bindChain(before, contextFor(shape.frames, shape.rate, beforeOptions), beforeOptions, engines);
    // The analysis reads what the chain gives: its length and rate after every rate change.
    std::uint64_t frames = *shape.frames;
    std::optional<double> rate = shape.rate;
    for (const auto& stage : chain->stages) {
      const auto [up, down] = stage->rateChange();
      frames = stage->outputSamples(frames);
      if (rate) rate = *rate * static_cast<double>(up) / static_cast<double>(down);
    }
    if (frames != *shape.frames || rate != shape.rate) {
      shape.frames = frames;
      shape.rate = rate;
      analysis = bindAnalysis(frames);
      why = analysis->whyNotStreamed();
    }
  }
  if (analysis && gpuNamed) {
    analysisEngine(*analysis, named, engines, *shape.frames, false, label);  // refused before any work
    if (why.empty()) why = analysis->whyNotStreamedOnGpu();
  }
  const bool streamed = input && shape.frames && options.streaming != Streaming::never && why.empty() &&
                        (!chain || planChain(*chain, engines, beforeOptions,
                                             {inputSizeBytes(input->path), *inputFrames * shape.channels}).stream) &&
                        (analysis->streamedBound().empty() ||
                         planStreaming(options.streaming, "the " + std::string(last.kind->name()) + " stage",
                                       options.sampleType, {inputSizeBytes(input->path), *inputFrames * shape.channels})
                             .stream);
  if (streamed) {
    report.plan = {true, "block by block: " + std::string(last.kind->name()) + " consumes its input as it comes"};
  } else {
    report.plan = {false, options.streaming == Streaming::never ? "in memory (--stream never)"
                          : !why.empty()                       ? "in memory: " + why
                                                               : "in memory"};
  }
  if (chain) tellNotes(*chain, observer);
  bool noteTold = false;
  const auto tellAnalysisNote = [&] {
    if (!noteTold && observer.onNote && !analysis->note().empty()) observer.onNote(label + analysis->note());
    noteTold = true;
  };
  if (analysis) tellAnalysisNote();
  if (observer.onPlan) observer.onPlan(report.plan);

  AnalysisEngine engine;
  if (analysis) engine = analysisEngine(*analysis, named, engines, *shape.frames, streamed, label);
  AnalysisOutput output{file ? file->path : std::string(), shape.channels, shape.frames.value_or(0), shape.rate,
                        engine.parallel, engine.gpu, streamed, Progress{{}, observer.cancel},
                        file ? nullptr : &report.analysis, file || !engine.gpu ? nullptr : options.pinnedMemory,
                        inMemory && inMemory->complexPairs};
  const auto openWriter = [&] {
    if (observer.beforeOutput) observer.beforeOutput();
    return analysis->open(output);
  };
  if (streamed && count == 1) {
    report.samples = *shape.frames;
    const std::unique_ptr<AnalysisWriter> writer = openWriter();
    report.wrote = pumpFile(*input, shape.channels, *writer, options.blockSamples, observer.phase("analysing"));
    report.channels.resize(shape.channels);
  } else if (streamed) {
    SampleVector unused;
    if (shape.channels == 1) {
      StreamEnds ends = fileEnds(*input, MemorySink{}, unused);
      ends.sink = [&](std::optional<std::uint64_t>, std::optional<double>, double) -> std::unique_ptr<SampleSink> {
        return std::make_unique<AnalysisSampleSink>(openWriter(), report.wrote);
      };
      runChainStreamed(*chain, ends, engines, beforeOptions, observer, report);
    } else {
      ChannelEnds ends = fileChannelEnds(*input, shape.channels, MemorySink{});
      ends.sink = [&](std::optional<std::uint64_t>, std::optional<double>, double) -> std::unique_ptr<ChannelSink> {
        return std::make_unique<AnalysisChannelSink>(openWriter(), shape.channels, report.wrote);
      };
      runChannelsStreamed(*chain, ends, engines, beforeOptions, observer, report);
    }
    if (!report.passed()) return report;
  } else {
    if (input && count == 1) {
      read = readPipelineSource(*input, observer.phase("reading " + input->path));
      channels.assign(read.channels.begin(), read.channels.end());
      shape.rate = read.sampleRate;
      report.sampleRate = read.sampleRate;
    } else if (count > 1) {
      PipelineReport ran = runPipeline(before, source, MemorySink{}, engines, beforeOptions, observer);
      if (!ran.passed()) return ran;
      report.channels = std::move(ran.channels);
      read.channels = std::move(ran.output);
      channels.assign(read.channels.begin(), read.channels.end());
      report.sampleRate = shape.rate = ran.sampleRate;
    }
    report.samples = channels.empty() ? 0 : channels.front().size();
    if (!analysis || *shape.frames != report.samples) {
      shape.frames = report.samples;
      analysis = bindAnalysis(report.samples);
    }
    tellAnalysisNote();
    engine = analysisEngine(*analysis, named, engines, report.samples, false, label);
    output.parallel = engine.parallel;
    output.engine = engine.gpu;
    output.frames = report.samples;
    output.sampleRate = shape.rate;
    const std::unique_ptr<AnalysisWriter> writer = openWriter();
    report.wrote = writeWhole(*writer, channels);
    report.channels.resize(channels.size());
  }
  StageReport done = analysisReport(*analysis, last, engine);
  done.note = analysis->note();
  done.pass.phases.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  done.pass.phases.kernelMs = done.pass.phases.totalMs;  // the chain before it included where it streams
  for (ChannelReport& channel : report.channels) channel.stages.push_back(done);
  if (observer.onStageDone) {
    for (std::size_t c = 0; c < report.channels.size(); ++c) observer.onStageDone(c, count - 1, report.channels[c].stages.back());
  }
  report.written = file != nullptr;
  return report;
}

}  // namespace siglab::detail
