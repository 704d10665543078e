#pragma once
// Analysis stages: a stage that ends a chain and writes not a signal but a matrix (spectrogram,
// stft: .npy) or a table (find-peaks: CSV or JSON) to the run's output. The chain before it runs
// as any chain does (in memory or block by block); its output goes, in memory or block by block,
// into the analysis stage's writer, which never needs the whole result at once when streamed.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <memory_resource>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "siglab/analysis_result.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/progress.hpp"
#include "siglab/stage_engine_rule.hpp"

namespace siglab {

// Where and what an analysis writes: the output's path, the signal's channels, frames and rate.
struct AnalysisOutput {
  std::string path;                  // empty where `memory` takes the result

  std::size_t channels = 1;
  std::uint64_t frames = 0;          // samples per channel, known before the run (bind needs them)
  std::optional<double> sampleRate;  // Hz
  bool parallel = true;              // cpu-parallel (frames or blocks on every core), else cpu-serial
  FilterBackend* engine = nullptr;   // a GPU engine that computes the frames or peaks instead of the CPU
  bool streamed = false;             // block by block (the file is then not flushed before its rename)
  Progress progress;                 // cancellation
  AnalysisResult* memory = nullptr;  // where given: the matrix or table goes there, no file is written
  // In memory: where a matrix's values are made (null: resultMemory()); the front-end's page-locked
  // memory when `engine` is a GPU's (PipelineOptions::pinnedMemory), which its copies write directly.
  std::pmr::memory_resource* memoryValues = nullptr;
  bool complexPairs = false;         // in memory: complex values as (re, im) pairs (MemorySink::complexPairs)
};

// One run's consumer: the chain's output, planar, block by block, then commit().
class AnalysisWriter {
 public:
  virtual ~AnalysisWriter() = default;  // without commit(): nothing is left behind, an old file stays
  // The next frames of every channel (one span a channel, all one size); the whole signal in one
  // call when it runs in memory.
  virtual void write(std::span<const std::span<const double>> block) = 0;
  // After the last block: the file appears, whole (or the result in memory is complete). Returns what was written, for people
  // ("1953 frames x 513 frequencies (float64, frames x frequencies)").
  virtual std::string commit() = 0;
};

// A stage bound to a signal that writes a matrix or a table (StageKind::endsChain() is true).
class AnalysisStage : public BoundStage {
 public:
  // Whether it consumes block by block in memory that does not grow with the signal; else why not
  // ("find-peaks prominence without wlen looks arbitrarily far for its bases").
  virtual std::string whyNotStreamed() const { return {}; }
  // Refuses, before any work, an output it cannot write (StageError naming the extension).
  virtual void checkOutput(const std::string& path) const = 0;
  virtual std::unique_ptr<AnalysisWriter> open(const AnalysisOutput& output) const = 0;
  // The values along the matrix's axes, named as SciPy returns them ("frequencies" in Hz, or cycles
  // a sample without a rate; "times" of the frames' centres), for front-ends that label them; empty
  // for a table.
  virtual std::vector<std::pair<std::string, std::vector<double>>> axes() const { return {}; }

  // A matrix or a table, not a signal: no history, no filter, no samples out.
  std::optional<std::size_t> historyBefore() const override { return std::nullopt; }
  std::optional<std::size_t> historyAfter() const override { return std::nullopt; }
  // The GPU engine hook this analysis runs on (stage_engine_rule.hpp), or nullopt: the CPU's only.
  virtual std::optional<GpuStageWork> gpuWork() const { return std::nullopt; }
  virtual const PeakOptions* peakOptions() const { return nullptr; }
  // Why it cannot stream on the GPU engine (find-peaks takes the whole signal at once), or empty.
  virtual std::string whyNotStreamedOnGpu() const { return {}; }
  // cpu-serial, cpu-parallel, then every engine of the list that runs gpuWork() here.
  std::vector<std::string> engineNames(const BackendList& engines) const override;
  AppliedJob applyInto(const BackendList& engines, std::span<const double> in, std::span<double> out,
                       const StageRunOptions& options, const Progress& progress) const override;
};

// Throws StageError naming the first analysis stage that has a stage after it: an analysis ends a chain.
void checkAnalysisEndsChain(const Pipeline& pipeline);

// Whether the chain's last stage is an analysis (its run is runAnalysisPipeline's).
bool endsInAnalysis(const Pipeline& pipeline);

}  // namespace siglab
