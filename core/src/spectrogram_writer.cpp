#include "spectrogram_writer.hpp"

#include <algorithm>
#include <cstdint>

#include "analysis_files.hpp"
#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab::detail {
namespace {

// Output values a batch of frames holds at most (16 MiB): a 99% overlap makes 100 values an input sample.
constexpr std::size_t kBatchBytes = std::size_t{1} << 24;
// In memory the batches are written straight into the result, so they need not be small: one GPU
// run (its input and output on the device at once) for up to 1 GiB of output, not 16 MiB runs.
constexpr std::size_t kMemoryBatchBytes = std::size_t{1} << 30;

// The .npy's shape: (frames, frequencies) for one plane; (frames, planes, frequencies) for more,
// the planes channel by channel (re and im of each for complex). Complex pairs in memory:
// (frames, frequencies, 2), or (frames, channels, frequencies, 2).
std::vector<std::uint64_t> shapeOf(const SpectrogramLayout& l, std::size_t channels) {
  if (l.complexPairs) {
    if (channels == 1) return {l.frames, l.frequencies, 2};
    return {l.frames, channels, l.frequencies, 2};
  }
  const std::size_t planes = channels * l.planes;
  if (l.frames == 0 && planes == 1) return {0, 0};
  if (planes == 1) return {l.frames, l.frequencies};
  return {l.frames, planes, l.frequencies};
}

class SpectrogramWriter final : public AnalysisWriter {
 public:
  SpectrogramWriter(const SpectrogramLayout& layout, const AnalysisOutput& output)
      : l_(pairedWhereAsked(layout, output)), output_(output), buffers_(output.channels, std::vector<double>(layout.padFront, 0.0)),
        views_(output.channels), file_(output.path, shapeOf(l_, output.channels), output.streamed, output.memory, output.memoryValues) {
    for (std::size_t c = 0; c < views_.size(); ++c) views_[c] = buffers_[c];
    const std::size_t frameValues = std::max<std::size_t>(1, output.channels * l_.planes * l_.frequencies);
    batchFrames_ = std::max<std::size_t>(1, (output.memory ? kMemoryBatchBytes : kBatchBytes) / sizeof(double) / frameValues);
  }

  void write(std::span<const std::span<const double>> block) override {
    if (!buffers_.front().empty()) {
      // Samples held (stft's front padding, or the last block's tail): the frames that begin in
      // them read at most nperseg samples of this block, so only those are joined to them, not the
      // whole block (a signal in memory is one block).
      const std::uint64_t blockStart = start_ + buffers_.front().size();
      const std::size_t joined = std::min<std::size_t>(block.front().size(), l_.nperseg);
      for (std::size_t c = 0; c < buffers_.size(); ++c) {
        buffers_[c].insert(buffers_[c].end(), block[c].begin(), block[c].begin() + static_cast<std::ptrdiff_t>(joined));
        views_[c] = buffers_[c];
      }
      emitFrames();
      if (joined == block.front().size()) return;
      if (start_ < blockStart) {  // every frame made (start_ stays where the last began): keep the rest as before
        for (std::size_t c = 0; c < buffers_.size(); ++c) {
          buffers_[c].insert(buffers_[c].end(), block[c].begin() + static_cast<std::ptrdiff_t>(joined), block[c].end());
        }
        return;
      }
      const std::size_t from = static_cast<std::size_t>(start_ - blockStart);  // the next frame's first sample
      for (std::size_t c = 0; c < buffers_.size(); ++c) {
        buffers_[c].clear();
        views_[c] = block[c].subspan(from);
      }
    } else {
      for (std::size_t c = 0; c < buffers_.size(); ++c) views_[c] = block[c];  // the frames read the block itself
    }
    emitFrames();
  }

  std::string commit() override {
    for (std::size_t c = 0; c < buffers_.size(); ++c) {
      buffers_[c].resize(buffers_[c].size() + l_.padBack, 0.0);
      views_[c] = buffers_[c];
    }
    emitFrames();
    file_.commit();
    const std::size_t f = l_.frequencies;
    std::string what = std::to_string(l_.frames) + " frames x " + std::to_string(f) + " frequencies";
    if (output_.channels * l_.planes > 1) {
      what += " x " + std::to_string(output_.channels * l_.planes) + " planes (" +
              (l_.planes == 2 ? "re, im of each channel" : "one a channel") + ")";
    }
    what += ", float64 .npy of shape " + file_.shapeText();
    if (l_.frames > 0) {
      const std::string unit = output_.sampleRate ? " s" : " samples";
      what += "; frame k centred at " + shortNumber(l_.frameTime(0)) + " + k x " +
              shortNumber(static_cast<double>(l_.step) / l_.rate) + unit + ", frequency j at j x " +
              shortNumber(l_.rate / static_cast<double>(l_.nfft)) + (output_.sampleRate ? " Hz" : " cycles/sample");
    }
    return what;
  }

 private:
  // Transforms every frame the buffers hold whole, a batch at a time, and drops the samples no
  // later frame reads.
  void emitFrames() {
    const std::uint64_t held = start_ + views_.front().size();
    std::uint64_t ready = held >= l_.nperseg ? std::min<std::uint64_t>(l_.frames, (held - l_.nperseg) / l_.step + 1) : 0;
    const std::size_t planeValues = l_.planes * l_.frequencies;
    const std::size_t channels = buffers_.size();
    while (next_ < ready) {
      output_.progress.throwIfCancelled();
      const auto count = static_cast<std::int64_t>(std::min<std::uint64_t>(batchFrames_, ready - next_));
      const std::size_t values = static_cast<std::size_t>(count) * channels * planeValues;
      std::span<double> out = file_.writable(values);  // in memory: the result itself
      const bool direct = !out.empty();
      if (!direct) {
        out_.resize(values);
        out = out_;
      }
      if (output_.engine) gpuFrames(static_cast<std::uint64_t>(count), out);
      else cpuFrames(static_cast<std::uint64_t>(count), out);
      if (direct) file_.wrote(values);
      else file_.append(out_);
      next_ += static_cast<std::uint64_t>(count);
    }
    const std::uint64_t keepFrom = std::max(std::min(next_ * l_.step, held), start_);  // the next frame's first sample
    const auto drop = static_cast<std::ptrdiff_t>(keepFrom - start_);
    for (std::size_t c = 0; c < buffers_.size(); ++c) {
      if (views_[c].data() == buffers_[c].data()) {
        buffers_[c].erase(buffers_[c].begin(), buffers_[c].begin() + drop);
      } else {
        buffers_[c].assign(views_[c].begin() + drop, views_[c].end());  // the caller's block: a copy of what is still needed
      }
      views_[c] = buffers_[c];
    }
    start_ = keepFrom;
  }

  // Frames [next_, next_ + count) of every channel on the CPU (each frame alone: the same bits on
  // every core), into `out`, frame by frame, channel by channel within a frame.
  void cpuFrames(std::uint64_t count, std::span<double> out) {
    const std::size_t planeValues = l_.planes * l_.frequencies;
    const std::size_t channels = buffers_.size();
    const auto jobs = static_cast<std::int64_t>(count * channels);
#pragma omp parallel if (output_.parallel && jobs > 1)
    {
      FrameTransform transform(l_);
#pragma omp for schedule(dynamic, 8)
      for (std::int64_t j = 0; j < jobs; ++j) {
        if ((j & 4095) == 0 && output_.progress.cancelled()) continue;  // no break out of an OpenMP loop
        const auto frame = static_cast<std::uint64_t>(j) / channels;
        const std::size_t c = static_cast<std::size_t>(j) % channels;
        const std::uint64_t at = (next_ + frame) * l_.step - start_;
        transform.run(views_[c].data() + at, out.data() + static_cast<std::size_t>(j) * planeValues);
      }
    }
    output_.progress.throwIfCancelled();  // a batch in memory is the whole signal: Esc stops it inside
  }

  // Frames [next_, next_ + count) of every channel on the GPU engine, into `out` (one channel's
  // frames at a time, interleaved as the CPU's loop lays them out).
  void gpuFrames(std::uint64_t count, std::span<double> out) {
    const std::size_t planeValues = l_.planes * l_.frequencies;
    const std::size_t channels = buffers_.size();
    const std::uint64_t at = next_ * l_.step - start_;
    if (channels == 1) {
      output_.engine->spectrogram(views_[0].subspan(at), l_, count, out, output_.progress);
    } else {
      gpuOut_.resize(static_cast<std::size_t>(count) * planeValues);
      for (std::size_t c = 0; c < channels; ++c) {
        output_.engine->spectrogram(views_[c].subspan(at), l_, count, gpuOut_, output_.progress);
        for (std::uint64_t f = 0; f < count; ++f) {
          std::copy_n(gpuOut_.begin() + static_cast<std::ptrdiff_t>(f * planeValues), planeValues,
                      out.begin() + static_cast<std::ptrdiff_t>((f * channels + c) * planeValues));
        }
      }
    }
  }

  static SpectrogramLayout pairedWhereAsked(const SpectrogramLayout& layout, const AnalysisOutput& output) {
    SpectrogramLayout l = layout;
    l.complexPairs = output.memory && output.complexPairs && l.mode == SpectrogramMode::complex;
    return l;
  }

  const SpectrogramLayout l_;  // the stage's, with complex pairs where the memory sink asks
  AnalysisOutput output_;
  std::vector<std::vector<double>> buffers_;       // per channel: the samples kept from one block to the next
  std::vector<std::span<const double>> views_;     // per channel: samples [start_, ...) of the padded signal
  std::uint64_t start_ = 0;
  std::uint64_t next_ = 0;  // the next frame to transform
  std::size_t batchFrames_ = 1;
  std::vector<double> out_;  // a batch of frames for a file
  std::vector<double> gpuOut_;  // one channel's frames from the GPU engine, with several channels
  NpyMatrixFile file_;
};

}  // namespace

SpectrogramAnalysis::SpectrogramAnalysis(std::string name, SpectrogramLayout layout, std::string windowText, std::string note)
    : name_(std::move(name)), layout_(std::move(layout)), windowText_(std::move(windowText)), note_(std::move(note)) {}

std::string SpectrogramAnalysis::describe() const {
  const SpectrogramLayout& l = layout_;
  const char* mode = l.mode == SpectrogramMode::psd ? "psd" : l.mode == SpectrogramMode::magnitude ? "magnitude" : "complex";
  return name_ + " nperseg " + std::to_string(l.nperseg) + ", noverlap " + std::to_string(l.noverlap) + ", nfft " +
         std::to_string(l.nfft) + ", " + windowText_ + " window, " + mode;
}

void SpectrogramAnalysis::checkOutput(const std::string& path) const {
  const bool npy = path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
  if (!npy && path != "-") {
    throw StageError(name_ + " writes a float64 .npy matrix: the output must end in .npy, got " + quoteExcerpt(path));
  }
}

std::unique_ptr<AnalysisWriter> SpectrogramAnalysis::open(const AnalysisOutput& output) const {
  return std::make_unique<SpectrogramWriter>(layout_, output);
}

// SciPy's f (rfftfreq(nfft, 1 / fs)) and t (the frames' centres, less stft's front padding).
std::vector<std::pair<std::string, std::vector<double>>> SpectrogramAnalysis::axes() const {
  const SpectrogramLayout& l = layout_;
  // Each axis written once, and moved into the result (a braced list would copy them).
  std::vector<std::pair<std::string, std::vector<double>>> axes(2);
  axes[0].first = "frequencies";
  axes[1].first = "times";
  std::vector<double>& frequencies = axes[0].second;
  std::vector<double>& times = axes[1].second;
  frequencies.reserve(l.frequencies);
  for (std::size_t k = 0; k < l.frequencies; ++k) frequencies.push_back(static_cast<double>(k) * l.rate / static_cast<double>(l.nfft));
  times.reserve(l.frames);
  for (std::uint64_t k = 0; k < l.frames; ++k) times.push_back(l.frameTime(k));
  return axes;
}

}  // namespace siglab::detail
