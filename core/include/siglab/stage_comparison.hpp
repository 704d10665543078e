#pragma once
// Comparing a stage's engines, or each stage of a chain in turn. The engines and the filter come
// from the bound stage (BoundStage::engineNames, filterSpec), so every kind compares the same way,
// a filter kind through runComparison and any other (detrend) through its own runs.
#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "siglab/comparison.hpp"
#include "siglab/pipeline.hpp"

namespace siglab {

/// How a stage's engines are compared: which, in what sample type, how often.
struct StageCompareOptions {
  std::string engines = "all";  // "all" (every engine; for a stage that is not a filter, its own) or names, comma-separated
  SampleType sampleType = SampleType::f64;
  Accumulator accumulator = Accumulator::SampleType;
  CompareOptions compare;       // run options, warm-ups and repeats
  std::string name = "the signal";  // for messages (a sample float32 cannot hold)
};

// One stage's engines on `in`, each checked against cpu-serial: a filter's through runComparison
// (each engine's tolerance; an engine that cannot run it is listed unavailable); another stage's
// engines each run through BoundStage::apply without verification, measured, and checked bit for
// bit. Throws JobError for an unknown engine, StageError for a stage without cpu-serial.
Comparison compareStage(const BoundStage& stage, const BackendList& engines, std::span<const double> in,
                        const StageCompareOptions& options, const ComparisonProgress& onEngineDone = {},
                        const Progress& progress = {});

/// One stage's engines compared, named as a chain names the stage.
struct StageComparison {
  std::string label;  // "stage 2 (median)"
  std::string chain;  // the stage as a chain writes it: "median 5"
  std::string note;   // binding's note (taps dropped), or empty
  Comparison comparison;
};

/// Every stage of a chain compared, in order.
struct ChainComparison {
  std::vector<StageComparison> stages;
  bool allAgree() const;
};

// Each stage's engines compared in turn, each on its own input: the signal for the first, the
// previous stages' output as auto's engines compute it (runPipeline, verified) for the others.
// Every stage is bound to the signal before any work (StageError naming the stage). A previous
// stage whose check failed ends the comparison with a std::runtime_error naming it.
// `onStage(k)` is called as stage k (from 0) starts.
ChainComparison compareChain(const Pipeline& pipeline, std::span<const double> in, std::optional<double> sampleRate,
                             const BackendList& engines, const StageCompareOptions& options,
                             const std::function<void(std::size_t stage)>& onStage = {}, const Progress& progress = {});

}  // namespace siglab
