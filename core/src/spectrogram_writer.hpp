#pragma once
// The bound spectrogram and stft stages (analysis_stage.hpp): frames taken from the chain's output
// as it comes, transformed a batch at a time (in parallel on cpu-parallel: each frame alone, so the
// same bits as cpu-serial), appended to a float64 .npy. Held at once: one block of input plus a
// segment, and one batch of frames (at most kBatchBytes of output). In memory the batches are
// written straight into the result (NpyMatrixFile::writable), up to 1 GiB a batch.
#include <string>

#include "siglab/analysis_stage.hpp"
#include "siglab/spectrogram.hpp"

namespace siglab::detail {

class SpectrogramAnalysis final : public AnalysisStage {
 public:
  SpectrogramAnalysis(std::string name, SpectrogramLayout layout, std::string windowText, std::string note = {});
  std::string describe() const override;
  std::string note() const override { return note_; }
  void checkOutput(const std::string& path) const override;
  std::unique_ptr<AnalysisWriter> open(const AnalysisOutput& output) const override;
  std::vector<std::pair<std::string, std::vector<double>>> axes() const override;
  const SpectrogramLayout& layout() const { return layout_; }
  std::optional<GpuStageWork> gpuWork() const override { return GpuStageWork::Spectrogram; }

 private:
  std::string name_;
  SpectrogramLayout layout_;
  std::string windowText_;
  std::string note_;
};

}  // namespace siglab::detail
