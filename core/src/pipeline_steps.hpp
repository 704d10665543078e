#pragma once
// The parts of runPipeline (pipeline_run.hpp), one file each: binding the stages to the signal,
// planning, the in-memory run, the streamed run, and the source's and sink's ends.
#include <cstdint>
#include <memory>
#include <vector>

#include "siglab/io/channel_sink.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/job.hpp"
#include "siglab/pipeline_run.hpp"

namespace siglab::detail {

// A pipeline's stages bound to one signal, with what each runs on.
struct BoundChain {
  std::vector<const StageKind*> kinds;
  std::vector<std::unique_ptr<BoundStage>> stages;
  std::vector<std::string> engines;  // per stage: "auto" or a name
  // Per stage, what its outputs are where binding knew the input's (rate changes follow the chain).
  std::vector<std::optional<std::uint64_t>> outputs;
  std::vector<std::optional<double>> rates;

  std::size_t size() const { return stages.size(); }
  // "stage 2 (median): " in a chain of several, "" for one stage (whose messages are today's).
  std::string prefix(std::size_t k) const;
};

// Binds every stage to `context` and checks each stage's engine name, before any work. Throws
// StageError naming the stage.
BoundChain bindChain(const Pipeline& pipeline, const StageContext& context, const PipelineOptions& options,
                     const BackendList& engines);

// The engines a filter stage tries when streamed, as applyEngineOrder orders them.
std::vector<EngineChoice> streamEngineOrder(const BoundChain& chain, std::size_t k, const BackendList& engines,
                                            const PipelineOptions& options);

// Whether stage k is sections that a streamed run runs as its own stream (SectionsStream), always on
// kSectionsStreamEngine: the serial recursion, the reference itself.
bool streamsSections(const BoundChain& chain, std::size_t k);
inline constexpr std::string_view kSectionsStreamEngine = "cpu-serial";

// Whether stage k streams as a stream of its own (BoundStage::streamFrom: a rate change), on
// kSectionsStreamEngine: the serial reference itself.
bool streamsItself(const BoundChain& chain, std::size_t k);

// The GPU engine stage k's own stream computes on: the one the chain names, where the stage streams
// that work on a GPU (BoundStage::streamedGpuWork: the envelope) and the engine runs it here; else nullptr.
FilterBackend* streamedGpuEngine(const BoundChain& chain, std::size_t k, const BackendList& engines);

// What the run does with the whole chain: planStreaming's rules for each stage, and the reasons a
// chain stays in memory (a stage with no finite history, wrap or interp edges after the first).
StreamingPlan planChain(const BoundChain& chain, const BackendList& engines, const PipelineOptions& options,
                       const StreamingCase& io);

// How stage k runs one channel: in memory, and (jobOfStage of it) a filter stage's streamed run.
StageRunOptions stageRunOptions(const BoundChain& chain, std::size_t k, const PipelineOptions& options,
                                const std::string& name);

// The report of one stage, before it runs: kind, description, note, window.
StageReport stageReportOf(const BoundChain& chain, std::size_t k);

// In memory: every channel through every stage; the outputs into `into` (one span per channel),
// or with `into` empty in report.output. Stops a channel at a stage that fails verification
// (report.passed() is false then).
void runChainInMemory(const BoundChain& chain, std::span<const std::span<const double>> channels,
                      std::span<const std::span<double>> into, const BackendList& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, const std::string& name,
                      PipelineReport& report);

// Block by block: one channel from the stream `open()` gives into the sink `sink()` gives (each
// called again when an engine fails and auto starts the chain over with the next one). Fills one
// ChannelReport. `tail`: the input's last samples for a first stage in wrap mode.
struct StreamEnds {
  std::function<std::unique_ptr<SampleStream>()> open;
  // `rate`: the input stream's; `rateScale`: the chain's rate change (output rate over input rate).
  std::function<std::unique_ptr<SampleSink>(std::optional<std::uint64_t> knownSize, std::optional<double> rate,
                                            double rateScale)>
      sink;
  std::function<std::vector<double>(std::size_t count)> tail;
  std::string name;  // the input, for messages
};
void runChainStreamed(const BoundChain& chain, const StreamEnds& ends, const BackendList& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, PipelineReport& report);

// One attempt's per-stage results on one channel, summed over the blocks.
struct StreamedStages {
  std::vector<Job> jobs;
  std::vector<ApplyResult> results;
  std::vector<std::size_t> blocks;
};
StreamedStages streamedStages(const BoundChain& chain, const PipelineOptions& options, const std::string& name);

// The engines each stage tried: `attempt` runs with one engine a stage and throws BlockEngineFailed
// where one fails; with "auto" the stage's next engine is tried then, from the first sample.
struct EngineAttempts {
  std::vector<std::vector<EngineChoice>> orders;
  std::vector<std::size_t> tried;  // per stage: the index in orders of the engine that ran
  std::vector<std::vector<std::string>> fellBack;
};
EngineAttempts runFallingBack(const BoundChain& chain, const BackendList& engines, const PipelineOptions& options,
                              const std::function<void(const std::vector<FilterBackend*>&)>& attempt);

// Appends one channel's report (report.samples outputs) from its streamed runs.
void reportStreamedChannel(const BoundChain& chain, const EngineAttempts& attempts, StreamedStages& runs,
                           const PipelineOptions& options, const PipelineObserver& observer, PipelineReport& report);

// Block by block, every channel in one pass: one ChannelStream's planar blocks dealt out to one
// chain of FilteredStreams a channel, whose outputs go out as planar blocks into one ChannelSink
// (or into report.output). `lanes[c]` opens channel c alone, for a first stage's wrap and interp
// edges. Fills one ChannelReport a channel.
struct ChannelEnds {
  std::function<std::unique_ptr<ChannelStream>()> open;
  std::vector<StreamEnds> lanes;
  // nullptr: into report.output
  std::function<std::unique_ptr<ChannelSink>(std::optional<std::uint64_t> frames, std::optional<double> rate,
                                             double rateScale)>
      sink;
  std::string name;
};
void runChannelsStreamed(const BoundChain& chain, const ChannelEnds& ends, const BackendList& engines,
                         const PipelineOptions& options, const PipelineObserver& observer, PipelineReport& report);

// What binding did to each stage (taps dropped), told to the observer.
void tellNotes(const BoundChain& chain, const PipelineObserver& observer);
// Refuses a file sink that cannot hold `channels` channels (or the sample width asked), before any
// work; tells the note of its format (FLAC: quantised) where it has one.
void checkFileSink(const PipelineSink& sink, std::size_t channels, const PipelineObserver& observer);
StageContext contextFor(std::optional<std::uint64_t> samples, std::optional<double> rate, const PipelineOptions& options);

// In memory, from channels already there, into the sink (a file only when every check passed).
void runInMemory(const BoundChain& chain, std::span<const std::span<const double>> channels,
                 std::optional<double> rate, const std::string& name, const PipelineSink& sink,
                 const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer,
                 PipelineReport& report);

// runPipeline on a file (pipeline_run_file.cpp).
PipelineReport runOnFile(const Pipeline& pipeline, const FileSource& source, const PipelineSink& sink,
                         const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer);

}  // namespace siglab::detail
