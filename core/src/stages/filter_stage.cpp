#include "siglab/filter_stage.hpp"

#include <utility>

#include "siglab/filter_kinds.hpp"

namespace siglab {
namespace {

class FilterStage final : public BoundStage {
 public:
  FilterStage(FilterSpec spec, std::string note, std::optional<double> sampleRate)
      : spec_(std::move(spec)), note_(std::move(note)), sampleRate_(sampleRate) {}

  std::string describe() const override { return describeFilter(spec_); }
  std::string note() const override { return note_; }
  std::optional<std::size_t> historyBefore() const override { return history(); }
  std::optional<std::size_t> historyAfter() const override { return history(); }
  bool streamsWithoutHistory() const override { return spec_.kind == FilterKind::Sos; }
  const FilterSpec* filterSpec() const override { return &spec_; }

  std::vector<std::string> engineNames(const BackendList& engines) const override {
    std::vector<std::string> names;
    for (const auto& engine : engines) {
      if (engine->whyNot(spec_, SampleType::f64).empty()) names.emplace_back(engine->name());
    }
    return names;
  }

  AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override {
    const Job job = jobOfStage(spec_, options);
    try {
      return applyJobInto(engines, in, out, job, progress);
    } catch (const JobError& e) {
      throw StageError(e.what());
    }
  }

  std::optional<FrequencyResponse> response(std::size_t points) const override {
    return filterResponse(spec_, points, sampleRate_);
  }

 private:
  // An output reads its window's radius on each side (past the signal's ends, what the mode says:
  // a block runner pads a block there as streamFilter does). Savitzky-Golay's interp edges fit the
  // first (last) W samples, so an output near an end reads up to W - 1 samples past itself: with
  // that history, a block at an end holds the W samples its edge fit needs, even a block of one
  // output (today's streamApply streams correlations only). Sections are recursive: every output
  // may depend on every input.
  std::optional<std::size_t> history() const {
    if (spec_.kind == FilterKind::Sos) return std::nullopt;
    if (spec_.kind == FilterKind::SavitzkyGolay && spec_.savgol.interp) return spec_.window() - 1;
    return spec_.radius();
  }

  FilterSpec spec_;
  std::string note_;
  std::optional<double> sampleRate_;
};

}  // namespace

Job jobOfStage(const FilterSpec& spec, const StageRunOptions& options) {
  Job job;
  job.input = options.pathForMessages;
  job.spec = spec;
  job.engines = options.engine;
  job.sampleType = options.sampleType;
  job.run = options.run;
  job.verify = options.verify;
  job.verifyRandom = options.verifyRandom;
  job.verifyAll = options.verifyAll;
  return job;
}

std::unique_ptr<BoundStage> makeFilterStage(FilterSpec spec, std::string note, std::optional<double> sampleRate) {
  return std::make_unique<FilterStage>(std::move(spec), std::move(note), sampleRate);
}

}  // namespace siglab
