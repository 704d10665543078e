// A chain in memory: each channel through each stage in turn, each stage's input released as soon
// as the next stage has its output.
#include <algorithm>

#include "pipeline_steps.hpp"
#include "siglab/work_progress.hpp"

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
  report.outputs = r.output.size();
  if (const FilterSpec* spec = stage.filterSpec()) {
    if (const FilterBackend* engine = findEngine(engines, r.engine)) {
      report.normWiseBound = engine->errorBound(*spec, type) == ErrorBound::NormWise;
    }
  }
}

}  // namespace

void runChainInMemory(const BoundChain& chain, std::span<const std::span<const double>> channels,
                      const BackendList& engines, const PipelineOptions& options, const PipelineObserver& observer,
                      const std::string& name, PipelineReport& report) {
  const Progress filtering = observer.phase("filtering");
  const double share = 1.0 / static_cast<double>(std::max<std::size_t>(1, channels.size() * chain.size()));
  std::size_t done = 0;
  report.output.clear();
  for (const std::span<const double> channel : channels) {
    ChannelReport& channelReport = report.channels.emplace_back();
    SampleVector current;  // the last stage's output; the channel's own samples are the first input
    bool failed = false;
    for (std::size_t k = 0; k < chain.size() && !failed; ++k) {
      const std::span<const double> in = k == 0 ? channel : std::span<const double>(current);
      const Progress part = progressPart(filtering, share * static_cast<double>(done), share * static_cast<double>(done + 1));
      AppliedJob applied;
      try {
        applied = chain.stages[k]->apply(engines, in, stageRunOptions(chain, k, options, name), part);
      } catch (const StageError& e) {
        throw StageError(chain.prefix(k) + e.what());
      }
      ++done;
      StageReport& stage = channelReport.stages.emplace_back(stageReportOf(chain, k));
      fillFromApplied(stage, applied, engines, *chain.stages[k], options.sampleType, options.verify);
      failed = options.verify && !stage.verification.passed();
      if (observer.onStageDone) observer.onStageDone(report.channels.size() - 1, k, stage);
      current = std::move(applied.result.output);  // the stage before's output goes here
    }
    report.samples = channel.size();
    report.output.push_back(failed ? SampleVector() : std::move(current));
    if (failed) return;
  }
  filtering.report(1.0);
}

}  // namespace siglab::detail
