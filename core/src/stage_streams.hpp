#pragma once
// One channel's chain as streams, built the same way for a one-channel streamed run
// (pipeline_stream.cpp) and for each channel of a several-channel one (pipeline_channels.cpp):
// a FilteredStream a filter stage (its block filter verified), a SectionsStream a sections stage
// that streams, the first stage's wrap tail and interp edges from the channel's own ends.
#include <memory>
#include <optional>
#include <vector>

#include "pipeline_steps.hpp"
#include "sections_stream.hpp"
#include "streamed_edges.hpp"

namespace siglab::detail {

struct StageStreams {
  std::vector<PlacedBlockFilter> filters;  // per stage: its verified block filter (none for streamed sections)
  std::vector<std::unique_ptr<SampleStream>> streams;  // the stages built, in order
  SampleStream* last = nullptr;  // the last stage built's outputs (the input where none is)
  std::vector<const SectionsStream*> sections;  // per stage: its SectionsStream, for the report
  std::optional<InterpEdges> edges;  // the first stage's interp edges, where that stage is not built here
};

// Resets `runs` for one attempt with `engines` (one a stage) and builds stages 0 .. built - 1 on
// `input`; `lane` opens the channel alone (wrap tail, interp edges). The last stage of the chain
// reports to `lastProgress`, the others only look at `cancelOnly`.
StageStreams buildStageStreams(const BoundChain& chain, const std::vector<FilterBackend*>& engines, StreamedStages& runs,
                               SampleStream& input, const StreamEnds& lane, std::size_t built,
                               const PipelineOptions& options, const Progress& cancelOnly, const Progress& lastProgress);

// The streamed sections stages' filtering time and blocks into `runs`, once the stream has ended.
void tellSections(const StageStreams& stages, StreamedStages& runs);

// Whether a stage reads its whole input before its first output (zero-phase sections, spooled):
// channels read in turn from one shared stream would then queue a whole signal a channel.
bool readsWholeInputFirst(const BoundChain& chain);

}  // namespace siglab::detail
