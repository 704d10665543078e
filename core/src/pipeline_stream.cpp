// A chain block by block, in one pass: stage k reads stage k - 1's blocks through a
// FilteredStream, the last stage writes into the sink (streamFilterPlaced's reader and writer
// threads). With "auto", a stage whose engine fails starts the chain over with its next engine.
#include <algorithm>
#include <cstdint>

#include "pipeline_steps.hpp"
#include "rate_change.hpp"
#include "siglab/filter_stage.hpp"
#include "stage_streams.hpp"
#include "verified_block_filter.hpp"

namespace siglab::detail {
namespace {

// A last stage that is its own stream (sections): its outputs into the sink, block by block.
std::uint64_t pumpInto(SampleStream& stage, SampleSink& sink, std::size_t blockSamples, const Progress& progress) {
  std::vector<double> block(std::clamp<std::size_t>(blockSamples, 1, std::size_t{1} << 20));
  std::uint64_t samples = 0;
  for (;;) {
    const std::size_t got = stage.read(block);
    if (got == 0) break;
    sink.write(std::span<const double>(block).first(got));
    samples += got;
    progress.report(stage.fractionRead());
    if (got < block.size()) break;
  }
  progress.report(1.0);
  return samples;
}

std::uint64_t runOnce(const BoundChain& chain, const StreamEnds& ends, const std::vector<FilterBackend*>& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, StreamedStages& runs) {
  const std::size_t count = chain.size();
  const Progress cancelOnly{{}, observer.cancel};
  const Progress filtering = observer.phase("filtering");  // the last stage's, and the stream's
  std::unique_ptr<SampleStream> in = ends.open();
  // A last stage that is its own stream (sections, a rate change) is pumped into the sink, not filtered there.
  const bool lastStreamsSections = streamsSections(chain, count - 1) || streamsItself(chain, count - 1);
  StageStreams stages = buildStageStreams(chain, engines, runs, *in, ends, lastStreamsSections ? count : count - 1,
                                          options, cancelOnly, filtering);
  // A wrap in the last stage is the first's too (the plan keeps later ones in memory).
  const SignalTail tail = [&](std::size_t n) { return count == 1 ? ends.tail(n) : std::vector<double>{}; };
  if (observer.beforeOutput) observer.beforeOutput();
  std::unique_ptr<SampleSink> sink = ends.sink(stages.last->knownSize(), in->sampleRate(), rateScale(chain, count));
  if (stages.edges) sink = withEdges(std::move(sink), std::move(*stages.edges));  // a one-stage chain's
  std::uint64_t samples = 0;
  if (lastStreamsSections) {
    samples = pumpInto(*stages.last, *sink, options.blockSamples, filtering);
  } else {
    StreamFilterOptions blockOptions;
    blockOptions.blockSamples = options.blockSamples;
    samples = streamFilterPlaced(*stages.last, tail, runs.jobs[count - 1].spec, stages.filters[count - 1], *sink,
                                 blockOptions, filtering).samples;
  }
  tellSections(stages, runs);
  bool passed = true;
  for (const ApplyResult& r : runs.results) passed = passed && r.verification.passed();
  if (passed) sink->commit();
  return samples;
}

// A streamed sections stage's engine: cpu-serial, the reference recursion itself (its steps in its
// order, carried from block to block), so there is no separate result to check against it; or, for
// a stage whose stream under auto is cpu-parallel's block scan (decimate), that scan.
EngineChoice sectionsEngine(const BoundChain& chain, std::size_t k, const BackendList& engines) {
  if (FilterBackend* gpu = streamedGpuEngine(chain, k, engines)) {
    return {gpu, "streamed on " + std::string(gpu->name()) + ", each overlapped block transformed there: " +
                     chain.stages[k]->streamedBound()};
  }
  if (streamsItself(chain, k) && chain.engines[k] == "auto" && chain.stages[k]->streamsBlockScan()) {
    for (const auto& engine : engines) {
      if (engine->name() != "cpu-parallel") continue;
      return {engine.get(), "streamed, cpu-parallel's block scan on segments fixed in sample positions, its carry kept "
                            "from block to block: the in-memory run's bits (within sosKindTolerance of the "
                            "recursion), not verified separately"};
    }
  }
  for (const auto& engine : engines) {
    if (engine->name() != kSectionsStreamEngine) continue;
    if (streamsItself(chain, k) && !chain.stages[k]->streamedBound().empty()) {
      return {engine.get(), "streamed, it runs serially block by block: " + chain.stages[k]->streamedBound()};
    }
    if (streamsItself(chain, k)) {
      return {engine.get(), "streamed, it runs serially block by block with its history carried: the reference "
                            "itself, the same bits as in memory, so nothing separate to verify"};
    }
    return {engine.get(), "streamed sections run serially, block by block: the reference recursion itself, "
                          "the same bits as in memory, so nothing separate to verify"};
  }
  throw StageError(chain.prefix(k) + "no " + std::string(kSectionsStreamEngine) + " engine to stream the sections on");
}

}  // namespace

EngineAttempts runFallingBack(const BoundChain& chain, const BackendList& engines, const PipelineOptions& options,
                              const std::function<void(const std::vector<FilterBackend*>&)>& attempt) {
  const std::size_t count = chain.size();
  EngineAttempts a;
  for (std::size_t k = 0; k < count; ++k) {
    a.orders.push_back(streamsSections(chain, k) || streamsItself(chain, k) ? std::vector<EngineChoice>{sectionsEngine(chain, k, engines)}
                                                 : streamEngineOrder(chain, k, engines, options));
  }
  a.tried.assign(count, 0);
  a.fellBack.resize(count);
  for (;;) {
    std::vector<FilterBackend*> chosen;
    for (std::size_t k = 0; k < count; ++k) chosen.push_back(a.orders[k][a.tried[k]].engine);
    try {
      attempt(chosen);
      return a;
    } catch (const BlockEngineFailed& e) {
      const std::size_t k = e.stage;
      if (chain.engines[k] != "auto" || a.tried[k] + 1 == a.orders[k].size()) std::rethrow_exception(e.original);
      a.fellBack[k].push_back(std::string(chosen[k]->name()) + ": " + e.what());
      ++a.tried[k];  // the next engine starts again from the first sample
    }
  }
}

void reportStreamedChannel(const BoundChain& chain, const EngineAttempts& attempts, StreamedStages& runs,
                           const PipelineOptions& options, const PipelineObserver& observer, PipelineReport& report) {
  ChannelReport& channel = report.channels.emplace_back();
  for (std::size_t k = 0; k < chain.size(); ++k) {
    StageReport& stage = channel.stages.emplace_back(stageReportOf(chain, k));
    ApplyResult& r = runs.results[k];
    const EngineChoice& choice = attempts.orders[k][attempts.tried[k]];
    stage.engine = r.engine;
    stage.why = choice.why;
    stage.fellBack = attempts.fellBack[k];
    stage.usesGpu = r.usesGpu;
    stage.normWiseBound = chain.stages[k]->filterSpec() &&
                          choice.engine->errorBound(runs.jobs[k].spec, options.sampleType) == ErrorBound::NormWise;
    stage.pass = std::move(r.pass);
    // the reference itself: nothing to recheck
    stage.verified = options.verify && !streamsSections(chain, k) && !streamsItself(chain, k);
    stage.verification = r.verification;
    stage.verifyMs = r.verifyMs;
    stage.outputs = k + 1 < chain.size() && chain.outputs[k] ? *chain.outputs[k] : report.samples;
    if (observer.onStageDone) observer.onStageDone(report.channels.size() - 1, k, stage);
  }
  report.blocks = runs.blocks[chain.size() - 1];
}

StreamedStages streamedStages(const BoundChain& chain, const PipelineOptions& options, const std::string& name) {
  StreamedStages runs;
  runs.results.resize(chain.size());
  runs.blocks.resize(chain.size());
  for (std::size_t k = 0; k < chain.size(); ++k) {
    const FilterSpec* spec = chain.stages[k]->filterSpec();
    runs.jobs.push_back(spec ? jobOfStage(*spec, stageRunOptions(chain, k, options, name)) : Job{});  // a stage that streams itself: none
  }
  return runs;
}

void runChainStreamed(const BoundChain& chain, const StreamEnds& ends, const BackendList& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, PipelineReport& report) {
  StreamedStages runs = streamedStages(chain, options, ends.name);
  const EngineAttempts attempts = runFallingBack(chain, engines, options, [&](const std::vector<FilterBackend*>& chosen) {
    report.samples = runOnce(chain, ends, chosen, options, observer, runs);
  });
  reportStreamedChannel(chain, attempts, runs, options, observer, report);
}

}  // namespace siglab::detail
