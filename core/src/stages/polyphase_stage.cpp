#include "polyphase_stage.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>

#include "siglab/errors.hpp"
#include "siglab/job.hpp"
#include "siglab/stage_engine_rule.hpp"
#include "siglab/verify.hpp"
#include "siglab/work_progress.hpp"

namespace siglab::stages {

const RateEngine& rateEngine(const std::string& name, std::string_view kind) {
  for (const RateEngine& engine : kRateEngines) {
    if (name == "auto" || engine.name == name) return engine;
  }
  std::string list;
  for (const std::string& known : rateEngineNames()) list += (list.empty() ? "" : ", ") + known;
  throw StageError(std::string(kind) + " runs on " + list + ", not " + quoteExcerpt(name));
}

std::vector<std::string> rateEngineNames() {
  std::vector<std::string> names;
  for (const RateEngine& engine : kRateEngines) names.emplace_back(engine.name);
  return names;
}

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

class PolyphaseStage final : public BoundStage {
 public:
  PolyphaseStage(Polyphase fir, detail::OutputCount outputs, std::pair<std::size_t, std::size_t> rate,
                 std::string description)
      : fir_(std::move(fir)), outputs_(std::move(outputs)), rate_(rate), description_(std::move(description)) {}

  std::string describe() const override { return description_; }
  // An output reads the taps' reach of inputs around its place (in input samples).
  std::optional<std::size_t> historyBefore() const override { return reach(); }
  std::optional<std::size_t> historyAfter() const override { return reach(); }
  std::pair<std::size_t, std::size_t> rateChange() const override { return rate_; }
  std::uint64_t outputSamples(std::uint64_t inputs) const override { return outputs_(inputs); }
  bool streamsItself() const override { return true; }
  std::unique_ptr<SampleStream> streamFrom(SampleStream& upstream, const StageRunOptions& options,
                                           const Progress& progress) const override {
    return std::make_unique<detail::PolyphaseStream>(upstream, fir_, outputs_, options.sampleType == SampleType::f32,
                                                     options.pathForMessages, progress);
  }
  // The CPU's engines, then every engine of the list that runs rate changes here (gpu-tuned).
  std::vector<std::string> engineNames(const BackendList& engines) const override {
    return stageEngineNames(rateEngineNames(), GpuStageWork::RateChange, engines);
  }

  AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override {
    AppliedJob applied;
    const std::string named = stageEngineFor(options.engine, GpuStageWork::RateChange, in.size(), engines, applied.why);
    FilterBackend* listed = findEngine(engines, named);
    const bool cpu = listed == nullptr || std::ranges::any_of(kRateEngines, [&](const RateEngine& e) {
                       return e.name == named;
                     });
    if (!cpu) {
      if (std::string why = listed->whyNotPolyphase(); !why.empty()) {
        throw StageError(description_ + " cannot run on " + named + ": " + why);
      }
    }
    const RateEngine& engine = cpu ? rateEngine(named, description_) : kRateEngines[0];
    if (out.size() != outputs_(in.size())) throw std::invalid_argument("the output's size is not the stage's");
    ApplyResult& result = applied.result;
    result.engine = cpu ? std::string(engine.name) : named;
    result.usesGpu = !cpu && listed->usesGpu();
    std::vector<double> narrowed;  // float32: the inputs as float32 holds them, filtered in float64
    const std::span<const double> x = samplesAsTyped(in, options.sampleType, options.pathForMessages, narrowed);
    const double runShare = options.verify ? 0.9 : 1.0;
    const auto start = std::chrono::steady_clock::now();
    if (cpu) {
      fir_.run(x, out, engine.parallel, progressPart(progress, 0.0, runShare));
    } else {
      listed->polyphase(fir_, x, out, progressPart(progress, 0.0, runShare));  // the same bits, checked below
    }
    if (options.sampleType == SampleType::f32) {
      for (double& y : out) y = static_cast<float>(y);
    }
    result.pass.phases.kernelMs = result.pass.phases.totalMs = millisecondsSince(start);
    if (!options.verify) return applied;
    const auto checking = std::chrono::steady_clock::now();
    result.verification = verify(x, out, options, options.sampleType == SampleType::f32);
    result.verifyMs = millisecondsSince(checking);
    progress.report(1.0);
    return applied;
  }

 private:
  std::size_t reach() const {
    return fir_.tapCount() / static_cast<std::size_t>(fir_.up()) + 1;
  }

  // The outputs at verificationPositions recomputed serially: the same formula, so the same bits.
  Verification verify(std::span<const double> x, std::span<const double> out, const StageRunOptions& options,
                      bool float32) const {
    std::vector<std::size_t> positions;
    if (options.verifyAll) {
      positions.resize(out.size());
      for (std::size_t i = 0; i < positions.size(); ++i) positions[i] = i;
    } else {
      WorkSplits splits;
      splits.every = 1 << 16;
      positions = verificationPositions(out.size(), fir_.tapCount(), splits, options.verifyRandom, 0x7A7E);
    }
    Verification v;
    for (const std::size_t p : positions) {
      double expected = fir_.outputAt(static_cast<std::int64_t>(p), x.data(), 0, static_cast<std::int64_t>(x.size()));
      if (float32) expected = static_cast<float>(expected);
      ++v.checked;
      if (expected == out[p] || (std::isnan(expected) && std::isnan(out[p]))) continue;
      if (v.mismatches++ == 0) v.firstMismatch = p;
      const double diff = std::fabs(expected - out[p]);
      v.maxAbsDiff = std::max(v.maxAbsDiff, std::isnan(diff) ? INFINITY : diff);
    }
    return v;
  }

  Polyphase fir_;
  detail::OutputCount outputs_;
  std::pair<std::size_t, std::size_t> rate_;
  std::string description_;
};

}  // namespace

std::unique_ptr<BoundStage> makePolyphaseStage(Polyphase fir, detail::OutputCount outputs,
                                               std::pair<std::size_t, std::size_t> rate, std::string description) {
  return std::make_unique<PolyphaseStage>(std::move(fir), std::move(outputs), rate, std::move(description));
}

}  // namespace siglab::stages
