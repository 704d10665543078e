// A chain block by block, in one pass: stage k reads stage k - 1's blocks through a
// FilteredStream, the last stage writes into the sink (streamFilterPlaced's reader and writer
// threads). With "auto", a stage whose engine fails starts the chain over with its next engine.
#include <algorithm>

#include "filtered_stream.hpp"
#include "pipeline_steps.hpp"
#include "streamed_edges.hpp"
#include "verified_block_filter.hpp"

namespace siglab::detail {
namespace {

std::uint64_t runOnce(const BoundChain& chain, const StreamEnds& ends, const std::vector<FilterBackend*>& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, StreamedStages& runs) {
  const std::size_t count = chain.size();
  const Progress cancelOnly{{}, observer.cancel};
  const Progress filtering = observer.phase("filtering");  // the last stage's, and the stream's
  std::vector<PlacedBlockFilter> filters;
  for (std::size_t k = 0; k < count; ++k) {
    runs.results[k] = ApplyResult{};
    runs.results[k].engine = std::string(engines[k]->name());
    runs.results[k].usesGpu = engines[k]->usesGpu();
    runs.blocks[k] = 0;
    filters.push_back(verifiedBlockFilter(*engines[k], runs.jobs[k], runs.results[k], runs.blocks[k],
                                          k + 1 == count ? filtering : cancelOnly, k));
  }
  const FilterSpec& first = runs.jobs[0].spec;
  std::optional<InterpEdges> edges;  // the first stage's interp edges, put in place as its outputs pass
  if (first.kind == FilterKind::SavitzkyGolay && first.savgol.interp) edges = interpEdges(first, options.sampleType, ends);
  std::unique_ptr<SampleStream> in = ends.open();
  std::vector<std::unique_ptr<SampleStream>> stages;
  SampleStream* upstream = in.get();
  for (std::size_t k = 0; k + 1 < count; ++k) {
    const FilterSpec& spec = runs.jobs[k].spec;
    std::vector<double> tail = k == 0 && spec.mode == BoundaryMode::Wrap ? ends.tail(spec.radius()) : std::vector<double>{};
    std::unique_ptr<SampleStream> stage = std::make_unique<FilteredStream>(*upstream, spec, filters[k], options.blockSamples,
                                                                           std::move(tail), cancelOnly);
    if (k == 0 && edges) stage = withEdges(std::move(stage), std::move(*edges));
    stages.push_back(std::move(stage));
    upstream = stages.back().get();
  }
  // A wrap in the last stage is the first's too (the plan keeps later ones in memory).
  const SignalTail tail = [&](std::size_t n) { return count == 1 ? ends.tail(n) : std::vector<double>{}; };
  if (observer.beforeOutput) observer.beforeOutput();
  std::unique_ptr<SampleSink> sink = ends.sink(in->knownSize(), in->sampleRate());
  if (count == 1 && edges) sink = withEdges(std::move(sink), std::move(*edges));
  StreamFilterOptions blockOptions;
  blockOptions.blockSamples = options.blockSamples;
  const std::uint64_t samples = streamFilterPlaced(*upstream, tail, runs.jobs[count - 1].spec, filters[count - 1], *sink,
                                                   blockOptions, filtering).samples;
  bool passed = true;
  for (const ApplyResult& r : runs.results) passed = passed && r.verification.passed();
  if (passed) sink->commit();
  return samples;
}

}  // namespace

EngineAttempts runFallingBack(const BoundChain& chain, const BackendList& engines, const PipelineOptions& options,
                              const std::function<void(const std::vector<FilterBackend*>&)>& attempt) {
  const std::size_t count = chain.size();
  EngineAttempts a;
  for (std::size_t k = 0; k < count; ++k) a.orders.push_back(streamEngineOrder(chain, k, engines, options));
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
    stage.normWiseBound = choice.engine->errorBound(runs.jobs[k].spec, options.sampleType) == ErrorBound::NormWise;
    stage.pass = std::move(r.pass);
    stage.verified = options.verify;
    stage.verification = r.verification;
    stage.verifyMs = r.verifyMs;
    stage.outputs = report.samples;
    if (observer.onStageDone) observer.onStageDone(report.channels.size() - 1, k, stage);
  }
  report.blocks = runs.blocks[chain.size() - 1];
}

StreamedStages streamedStages(const BoundChain& chain, const PipelineOptions& options, const std::string& name) {
  StreamedStages runs;
  runs.results.resize(chain.size());
  runs.blocks.resize(chain.size());
  for (std::size_t k = 0; k < chain.size(); ++k) {
    runs.jobs.push_back(stageJob(*chain.stages[k]->filterSpec(), options, chain.engines[k], name));
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
