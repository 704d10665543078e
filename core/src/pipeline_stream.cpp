// A chain block by block, in one pass: stage k reads stage k - 1's blocks through a
// FilteredStream, the last stage writes into the sink (streamFilterPlaced's reader and writer
// threads). With "auto", a stage whose engine fails starts the chain over with its next engine.
#include <algorithm>

#include "filtered_stream.hpp"
#include "sections_stream.hpp"
#include "pipeline_steps.hpp"
#include "streamed_edges.hpp"
#include "verified_block_filter.hpp"

namespace siglab::detail {
namespace {

// One attempt's per-stage results, summed over the blocks.
struct StageRuns {
  std::vector<Job> jobs;
  std::vector<ApplyResult> results;
  std::vector<std::size_t> blocks;
};

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

void tellSections(const std::vector<const SectionsStream*>& sections, StageRuns& runs) {
  for (std::size_t k = 0; k < sections.size(); ++k) {
    if (!sections[k]) continue;
    runs.results[k].pass.phases.kernelMs = runs.results[k].pass.phases.totalMs = sections[k]->filterMs();
    runs.blocks[k] = sections[k]->blocks();
  }
}

std::uint64_t runOnce(const BoundChain& chain, const StreamEnds& ends, const std::vector<FilterBackend*>& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, StageRuns& runs) {
  const std::size_t count = chain.size();
  const Progress cancelOnly{{}, observer.cancel};
  const Progress filtering = observer.phase("filtering");  // the last stage's, and the stream's
  std::vector<PlacedBlockFilter> filters;
  for (std::size_t k = 0; k < count; ++k) {
    runs.results[k] = ApplyResult{};
    runs.results[k].engine = std::string(engines[k]->name());
    runs.results[k].usesGpu = engines[k]->usesGpu();
    runs.blocks[k] = 0;
    if (streamsSections(chain, k)) {  // its own stream (below), no block filter
      filters.emplace_back();
      continue;
    }
    filters.push_back(verifiedBlockFilter(*engines[k], runs.jobs[k], runs.results[k], runs.blocks[k],
                                          k + 1 == count ? filtering : cancelOnly, k));
  }
  const FilterSpec& first = runs.jobs[0].spec;
  std::optional<InterpEdges> edges;  // the first stage's interp edges, put in place as its outputs pass
  if (first.kind == FilterKind::SavitzkyGolay && first.savgol.interp) edges = interpEdges(first, options.sampleType, ends);
  std::unique_ptr<SampleStream> in = ends.open();
  std::vector<std::unique_ptr<SampleStream>> stages;
  std::vector<const SectionsStream*> sections(count, nullptr);  // their time and blocks, for the report
  SampleStream* upstream = in.get();
  for (std::size_t k = 0; k + 1 < count; ++k) {
    const FilterSpec& spec = runs.jobs[k].spec;
    if (streamsSections(chain, k)) {
      stages.push_back(std::make_unique<SectionsStream>(*upstream, spec, options.sampleType, ends.name,
                                                        options.blockSamples, cancelOnly));
      sections[k] = static_cast<const SectionsStream*>(stages.back().get());
      upstream = stages.back().get();
      continue;
    }
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
  std::uint64_t samples = 0;
  std::unique_ptr<SectionsStream> lastSections;
  if (streamsSections(chain, count - 1)) {
    lastSections = std::make_unique<SectionsStream>(*upstream, runs.jobs[count - 1].spec, options.sampleType, ends.name,
                                                    options.blockSamples, filtering);
    sections[count - 1] = lastSections.get();
    samples = pumpInto(*lastSections, *sink, options.blockSamples, filtering);
  } else {
    StreamFilterOptions blockOptions;
    blockOptions.blockSamples = options.blockSamples;
    samples = streamFilterPlaced(*upstream, tail, runs.jobs[count - 1].spec, filters[count - 1], *sink, blockOptions,
                                 filtering).samples;
  }
  tellSections(sections, runs);
  bool passed = true;
  for (const ApplyResult& r : runs.results) passed = passed && r.verification.passed();
  if (passed) sink->commit();
  return samples;
}

// A streamed sections stage's engine: cpu-serial, the reference recursion itself (its steps in its
// order, carried from block to block), so there is no separate result to check against it.
EngineChoice sectionsEngine(const BoundChain& chain, std::size_t k, const BackendList& engines) {
  for (const auto& engine : engines) {
    if (engine->name() == kSectionsStreamEngine) {
      return {engine.get(), "streamed sections run serially, block by block: the reference recursion itself, "
                            "the same bits as in memory, so nothing separate to verify"};
    }
  }
  throw StageError(chain.prefix(k) + "no " + std::string(kSectionsStreamEngine) + " engine to stream the sections on");
}

}  // namespace

void runChainStreamed(const BoundChain& chain, const StreamEnds& ends, const BackendList& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, PipelineReport& report) {
  const std::size_t count = chain.size();
  std::vector<std::vector<EngineChoice>> orders;
  StageRuns runs;
  runs.results.resize(count);
  runs.blocks.resize(count);
  for (std::size_t k = 0; k < count; ++k) {
    orders.push_back(streamsSections(chain, k) ? std::vector<EngineChoice>{sectionsEngine(chain, k, engines)}
                                               : streamEngineOrder(chain, k, engines, options));
    runs.jobs.push_back(stageJob(*chain.stages[k]->filterSpec(), options, chain.engines[k], ends.name));
  }
  std::vector<std::size_t> tried(count, 0);
  std::vector<std::vector<std::string>> fellBack(count);
  for (;;) {
    std::vector<FilterBackend*> chosen;
    for (std::size_t k = 0; k < count; ++k) chosen.push_back(orders[k][tried[k]].engine);
    try {
      report.samples = runOnce(chain, ends, chosen, options, observer, runs);
      break;
    } catch (const BlockEngineFailed& e) {
      const std::size_t k = e.stage;
      if (chain.engines[k] != "auto" || tried[k] + 1 == orders[k].size()) std::rethrow_exception(e.original);
      fellBack[k].push_back(std::string(chosen[k]->name()) + ": " + e.what());
      ++tried[k];  // the next engine starts again from the first sample
    }
  }
  ChannelReport& channel = report.channels.emplace_back();
  for (std::size_t k = 0; k < count; ++k) {
    StageReport& stage = channel.stages.emplace_back(stageReportOf(chain, k));
    ApplyResult& r = runs.results[k];
    const EngineChoice& choice = orders[k][tried[k]];
    stage.engine = r.engine;
    stage.why = choice.why;
    stage.fellBack = std::move(fellBack[k]);
    stage.usesGpu = r.usesGpu;
    stage.normWiseBound = choice.engine->errorBound(runs.jobs[k].spec, options.sampleType) == ErrorBound::NormWise;
    stage.pass = std::move(r.pass);
    stage.verified = options.verify && !streamsSections(chain, k);  // the reference itself: nothing to recheck
    stage.verification = r.verification;
    stage.verifyMs = r.verifyMs;
    stage.outputs = report.samples;
    if (observer.onStageDone) observer.onStageDone(report.channels.size() - 1, k, stage);
  }
  report.blocks = runs.blocks[count - 1];
}

}  // namespace siglab::detail
