// A chain in memory: each channel through each stage in turn, each stage's input released as soon
// as the next stage has its output.
#include <algorithm>
#include <cstdint>

#include "pipeline_steps.hpp"
#include "siglab/job.hpp"
#include "siglab/large_page_resource.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {

std::pmr::memory_resource* resultMemoryFor(const Pipeline& pipeline, const BackendList& engines,
                                           const PipelineOptions& options) {
  const std::size_t last = pipeline.stages.empty() ? 0 : pipeline.stages.size() - 1;
  const FilterBackend* engine = last < options.engines.size() ? findEngine(engines, options.engines[last]) : nullptr;
  return options.pinnedMemory && engine && engine->usesGpu() ? options.pinnedMemory : resultMemory();
}

}  // namespace siglab

namespace siglab::detail {

StageRunOptions stageRunOptions(const BoundChain& chain, std::size_t k, const PipelineOptions& options,
                                const std::string& name) {
  StageRunOptions run;
  run.engine = chain.engines[k];
  run.sampleType = options.sampleType;
  run.run = options.run;
  run.verify = options.verify;
  run.verifyRandom = options.verifyRandom;
  run.verifyAll = options.verifyAll;
  run.pathForMessages = name;
  return run;
}

namespace {

void fillFromApplied(StageReport& report, AppliedJob& applied, const BackendList& engines, const BoundStage& stage,
                     SampleType type, bool verify) {
  ApplyResult& r = applied.result;
  report.engine = r.engine;
  report.why = std::move(applied.why);
  report.fellBack = std::move(applied.fellBack);
  report.usesGpu = r.usesGpu;
  report.pass = std::move(r.pass);
  report.verified = verify;
  report.verification = r.verification;
  report.verifyMs = r.verifyMs;
  if (const FilterSpec* spec = stage.filterSpec()) {
    if (const FilterBackend* engine = findEngine(engines, r.engine)) {
      report.normWiseBound = engine->errorBound(*spec, type) == ErrorBound::NormWise;
    }
  }
}

}  // namespace

void runChainInMemory(const BoundChain& chain, std::span<const std::span<const double>> channels,
                      std::span<const std::span<double>> into, const BackendList& engines,
                      const PipelineOptions& options, const PipelineObserver& observer, const std::string& name,
                      PipelineReport& report) {
  const Progress filtering = observer.phase("filtering");
  const double share = 1.0 / static_cast<double>(std::max<std::size_t>(1, channels.size() * chain.size()));
  std::size_t done = 0;
  report.output.clear();
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const std::span<const double> channel = channels[c];
    ChannelReport& channelReport = report.channels.emplace_back();
    // Ping-pong: stage k writes buffers[k % 2] and reads the other (the channel's own samples first);
    // the last stage writes the caller's span where there is one. Both are released with the channel.
    SampleVector buffers[2];
    // Stage k's outputs: its input's count, or its rate change's own.
    const auto outputOf = [&](std::size_t k, std::size_t inputs) -> std::span<double> {
      if (k + 1 == chain.size() && !into.empty()) return into[c];
      SampleVector& buffer = buffers[k % 2];
      const std::uint64_t outputs = chain.stages[k]->outputSamples(inputs);
      if (buffer.size() != outputs) buffer = SampleVector(ForOverwrite{}, outputs, resultMemory());
      return buffer;
    };
    bool failed = false;
    for (std::size_t k = 0; k < chain.size() && !failed; ++k) {
      const std::span<const double> in = k == 0 ? channel : std::span<const double>(buffers[(k - 1) % 2]);
      const std::span<double> out = outputOf(k, in.size());
      const Progress part = progressPart(filtering, share * static_cast<double>(done), share * static_cast<double>(done + 1));
      AppliedJob applied;
      try {
        applied = chain.stages[k]->applyInto(engines, in, out, stageRunOptions(chain, k, options, name), part);
      } catch (const StageError& e) {
        throw StageError(chain.prefix(k) + e.what());
      }
      ++done;
      StageReport& stage = channelReport.stages.emplace_back(stageReportOf(chain, k));
      fillFromApplied(stage, applied, engines, *chain.stages[k], options.sampleType, options.verify);
      stage.outputs = out.size();
      failed = options.verify && !stage.verification.passed();
      if (observer.onStageDone) observer.onStageDone(report.channels.size() - 1, k, stage);
    }
    report.samples = chain.size() == 0 ? channel.size() : channelReport.stages.back().outputs;
    if (into.empty()) {
      report.output.push_back(failed || chain.size() == 0 ? SampleVector() : std::move(buffers[(chain.size() - 1) % 2]));
    }
    if (failed) return;
  }
  filtering.report(1.0);
}

}  // namespace siglab::detail
