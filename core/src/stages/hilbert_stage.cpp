// hilbert: the analytic signal scipy.signal.hilbert(x), an analysis stage writing its real and
// imaginary parts as two columns a channel (re0, im0, re1, im1, ...) of a float64 .npy of N rows.
// In memory the whole signal's FFT; streamed, the overlapped blocks of the envelope stage, within
// the bound that stage states (tests/core/envelope_test.cpp measures both).
#include <algorithm>
#include <future>

#include "valueless_kind.hpp"
#include "kind_values.hpp"
#include "siglab/analysis_stage.hpp"
#include "siglab/analytic_signal.hpp"
#include "siglab/errors.hpp"
#include "../analysis_files.hpp"

namespace siglab::stages {
namespace {

// Each channel's analytic signal, interleaved into rows as its blocks come (all channels' blocks
// are the same size, since every channel gets the same writes).
class HilbertWriter final : public AnalysisWriter {
 public:
  explicit HilbertWriter(const AnalysisOutput& output)
      : output_(output), file_(output.path, {output.frames, 2 * output.channels}, output.streamed, output.memory, output.memoryValues) {
    for (std::size_t c = 0; c < output.channels; ++c) {
      parts_.push_back(std::make_unique<Part>());
      Part& part = *parts_.back();
      OverlappedAnalytic::Transform onGpu;  // a GPU engine transforms each overlapped block
      if (output.engine) {
        onGpu = [this](std::span<const double> x, std::span<double> im) {
          output_.engine->hilbert(x, im, false, output_.progress);
        };
      }
      part.blocks = std::make_unique<OverlappedAnalytic>(
          [&part](std::span<const double> re, std::span<const double> im) {
            part.re.insert(part.re.end(), re.begin(), re.end());
            part.im.insert(part.im.end(), im.begin(), im.end());
          },
          AnalyticBlocks{}, std::move(onGpu));
    }
  }

  void write(std::span<const std::span<const double>> block) override {
    output_.progress.throwIfCancelled();
    for (std::size_t c = 0; c < parts_.size(); ++c) {
      if (output_.streamed) {
        parts_[c]->blocks->push(block[c]);
      } else {
        whole_.resize(parts_.size());
        whole_[c].insert(whole_[c].end(), block[c].begin(), block[c].end());
      }
    }
    flushRows();
  }

  std::string commit() override {
    for (std::size_t c = 0; c < parts_.size(); ++c) {
      Part& part = *parts_[c];
      if (output_.streamed) {
        part.blocks->finish();
      } else if (c < whole_.size()) {  // in memory: the whole signal's transform
        part.re.resize(whole_[c].size());
        part.im.resize(whole_[c].size());
        if (output_.engine) {
          std::copy(whole_[c].begin(), whole_[c].end(), part.re.begin());
          output_.engine->hilbert(whole_[c], part.im, false, output_.progress);
        } else {
          analyticSignal(whole_[c], part.re, part.im, output_.parallel);
        }
      }
    }
    flushRows();
    if (appending_.valid()) appending_.get();
    file_.commit();
    return std::to_string(output_.frames) + " samples x " + std::to_string(2 * output_.channels) +
           " columns (re, im of each channel), float64 .npy of shape " + file_.shapeText();
  }

 private:
  struct Part {
    std::unique_ptr<OverlappedAnalytic> blocks;
    std::vector<double> re, im;  // outputs not yet written
  };

  // Writes the rows every channel has, interleaved, on a thread of its own: the file takes them
  // while the next block is transformed (two row buffers, one append at a time).
  void flushRows() {
    std::size_t rows = SIZE_MAX;
    for (const auto& part : parts_) rows = std::min(rows, part->re.size());
    if (rows == 0 || rows == SIZE_MAX) return;
    const std::size_t width = 2 * parts_.size();
    std::vector<double>& filled = rows_[spare_];
    filled.resize(rows * width);
    for (std::size_t c = 0; c < parts_.size(); ++c) {
      Part& part = *parts_[c];
      for (std::size_t i = 0; i < rows; ++i) {
        filled[i * width + 2 * c] = part.re[i];
        filled[i * width + 2 * c + 1] = part.im[i];
      }
      part.re.erase(part.re.begin(), part.re.begin() + static_cast<std::ptrdiff_t>(rows));
      part.im.erase(part.im.begin(), part.im.begin() + static_cast<std::ptrdiff_t>(rows));
    }
    if (appending_.valid()) appending_.get();  // the other buffer is free again (and its error rethrown)
    appending_ = std::async(std::launch::async, [this, &filled] { file_.append(filled); });
    spare_ ^= 1;
  }

  AnalysisOutput output_;
  detail::NpyMatrixFile file_;
  std::vector<std::unique_ptr<Part>> parts_;
  std::vector<std::vector<double>> whole_;  // in memory: each channel, whole, until commit
  std::vector<double> rows_[2];
  int spare_ = 0;                 // the row buffer no append reads
  std::future<void> appending_;  // last: destroyed (waited for) before what it writes from and to
};

class HilbertAnalysis final : public AnalysisStage {
 public:
  std::string describe() const override { return "hilbert (analytic signal: re, im)"; }
  std::optional<GpuStageWork> gpuWork() const override { return GpuStageWork::Hilbert; }
  std::string streamedBound() const override { return std::string(kOverlappedAnalyticBound); }
  void checkOutput(const std::string& path) const override {
    const bool npy = path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
    if (!npy && path != "-") {
      throw StageError("hilbert writes a float64 .npy (re, im of each channel): the output must end in .npy, got " +
                       quoteExcerpt(path));
    }
  }
  std::unique_ptr<AnalysisWriter> open(const AnalysisOutput& output) const override {
    return std::make_unique<HilbertWriter>(output);
  }
};

class HilbertKind final : public ValuelessKind {
 public:
  std::string_view name() const override { return "hilbert"; }
  std::string_view summary() const override {
    static const std::string text = "the analytic signal scipy.signal.hilbert(x): re, im of each channel as two "
                                    "columns of a .npy; in memory the whole signal's FFT; streamed by " +
                                    std::string(kOverlappedAnalyticBound);
    return text;
  }
  bool endsChain() const override { return true; }  std::unique_ptr<BoundStage> bind(const StageParameters& /*values*/, const StageContext& /*context*/) const override {
    return std::make_unique<HilbertAnalysis>();
  }
};

}  // namespace
}  // namespace siglab::stages

namespace siglab {
const StageKind& hilbertKind() {
  static const stages::HilbertKind kind;
  return kind;
}
}  // namespace siglab
