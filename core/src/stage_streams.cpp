#include "stage_streams.hpp"

#include "filtered_stream.hpp"
#include "verified_block_filter.hpp"

namespace siglab::detail {

StageStreams buildStageStreams(const BoundChain& chain, const std::vector<FilterBackend*>& engines, StreamedStages& runs,
                               SampleStream& input, const StreamEnds& lane, std::size_t built,
                               const PipelineOptions& options, const Progress& cancelOnly, const Progress& lastProgress) {
  const std::size_t count = chain.size();
  StageStreams s;
  s.sections.assign(count, nullptr);
  for (std::size_t k = 0; k < count; ++k) {
    runs.results[k] = ApplyResult{};
    runs.results[k].engine = std::string(engines[k]->name());
    runs.results[k].usesGpu = engines[k]->usesGpu();
    runs.blocks[k] = 0;
    if (streamsSections(chain, k) || streamsItself(chain, k)) {  // its own stream (below), no block filter
      s.filters.emplace_back();
      continue;
    }
    s.filters.push_back(verifiedBlockFilter(*engines[k], runs.jobs[k], runs.results[k], runs.blocks[k],
                                            k + 1 == count ? lastProgress : cancelOnly, k));
  }
  const FilterSpec& first = runs.jobs[0].spec;
  if (first.kind == FilterKind::SavitzkyGolay && first.savgol.interp) s.edges = interpEdges(first, options.sampleType, lane);
  s.last = &input;
  for (std::size_t k = 0; k < built; ++k) {
    const FilterSpec& spec = runs.jobs[k].spec;
    const Progress& progress = k + 1 == count ? lastProgress : cancelOnly;
    if (streamsSections(chain, k)) {
      auto stage = std::make_unique<SectionsStream>(*s.last, spec, options.sampleType, lane.name, options.blockSamples,
                                                    progress);
      s.sections[k] = stage.get();
      s.streams.push_back(std::move(stage));
      s.last = s.streams.back().get();
      continue;
    }
    if (streamsItself(chain, k)) {  // a rate change: the stage's own stream, the reference's bits
      StageRunOptions run = stageRunOptions(chain, k, options, lane.name);
      if (engines[k]->usesGpu()) run.streamEngine = engines[k];  // streamedGpuEngine's choice
      s.streams.push_back(chain.stages[k]->streamFrom(*s.last, run, progress));
      s.last = s.streams.back().get();
      continue;
    }
    std::vector<double> tail = k == 0 && spec.mode == BoundaryMode::Wrap ? lane.tail(spec.radius()) : std::vector<double>{};
    std::unique_ptr<SampleStream> stage =
        std::make_unique<FilteredStream>(*s.last, spec, s.filters[k], options.blockSamples, std::move(tail), cancelOnly);
    if (k == 0 && s.edges) {
      stage = withEdges(std::move(stage), std::move(*s.edges));
      s.edges.reset();
    }
    s.streams.push_back(std::move(stage));
    s.last = s.streams.back().get();
  }
  return s;
}

void tellSections(const StageStreams& stages, StreamedStages& runs) {
  for (std::size_t k = 0; k < stages.sections.size(); ++k) {
    if (!stages.sections[k]) continue;
    runs.results[k].pass.phases.kernelMs = runs.results[k].pass.phases.totalMs = stages.sections[k]->filterMs();
    runs.blocks[k] = stages.sections[k]->blocks();
  }
}

bool readsWholeInputFirst(const BoundChain& chain) {
  for (std::size_t k = 0; k < chain.size(); ++k) {
    if (streamsSections(chain, k) && chain.stages[k]->filterSpec()->sos.zeroPhase) return true;
    if (streamsItself(chain, k) && chain.stages[k]->readsWholeInputFirst()) return true;
  }
  return false;
}

}  // namespace siglab::detail
