// spectrogramCuda (cuda_stages.hpp): frames made by one block each (mean removed, windowed, zero
// padded to nfft), transformed by one batched cuFFT D2Z plan from the plan cache, then turned into
// psd, magnitude or complex values by one thread a value. Batches of frames bound the scratch; a
// batch's plan size is rounded up to one of eight steps an octave, so a stream's varying block
// sizes reuse a few cached plans instead of making one per size.
#include <cufft.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "fft_plan_cache.hpp"
#include "gpu_engine.hpp"
#include "siglab/cuda_stages.hpp"
#include "stage_engine.hpp"

namespace siglab {
namespace {

constexpr int kFrameThreads = 256;
constexpr unsigned kValueThreads = 256;
// Frames a batch at most: about 128 MiB of float64 frames (and as much of spectra).
constexpr std::size_t kBatchBytes = std::size_t{128} << 20;

/* MakeFrames: block b writes frame `first + b` of the batch: (x - mean) * window for its nperseg
 * samples (linear detrend: less mean + slope (i - centre)), zeros up to nfft; frames at or past
 * `count` (a rounded-up plan's extra transforms) are all zeros. The mean (and the moment) are a
 * block tree over strided partial sums: a fixed order, so a frame has the same bits wherever
 * it falls in a batch or a stream's block. */
__global__ void makeFrames(const double* d_x, std::int64_t count, std::int64_t step, int nperseg, int nfft,
                           const double* d_window, int detrend, double spread, double* d_frames) {
  __shared__ double s_sum[kFrameThreads], s_moment[kFrameThreads];
  const std::int64_t frame = blockIdx.x;
  double* out = d_frames + frame * nfft;
  if (frame >= count) {
    for (int j = threadIdx.x; j < nfft; j += blockDim.x) out[j] = 0.0;
    return;
  }
  const double* segment = d_x + frame * step;
  const double centre = (nperseg - 1) / 2.0;
  double mean = 0.0, slope = 0.0;
  if (detrend != 0) {
    double sum = 0.0, moment = 0.0;
    for (int j = threadIdx.x; j < nperseg; j += blockDim.x) {
      sum += segment[j];
      moment += (j - centre) * segment[j];
    }
    s_sum[threadIdx.x] = sum;
    s_moment[threadIdx.x] = moment;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) {
        s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
        s_moment[threadIdx.x] += s_moment[threadIdx.x + half];
      }
      __syncthreads();
    }
    mean = s_sum[0] / nperseg;
    if (detrend == 2 && nperseg > 1) slope = s_moment[0] / spread;
  }
  for (int j = threadIdx.x; j < nfft; j += blockDim.x) {
    out[j] = j < nperseg ? (detrend == 2 ? (segment[j] - (mean + slope * (j - centre))) * d_window[j]
                                         : (segment[j] - mean) * d_window[j])
                         : 0.0;
  }
}

/* FrameValues: one thread a (frame, frequency) of the batch's `count` frames: psd |X|^2 scale
 * (bins 1 .. lastDoubled - 1 doubled), magnitude hypot(re scale, im scale), or complex re scale and
 * im scale in two planes (mode 2) or as (re, im) pairs (mode 3); as FrameTransform::run writes them. */
__global__ void frameValues(const cufftDoubleComplex* d_spectra, std::int64_t count, int bins, int mode, double scale,
                            int lastDoubled, double* d_out) {
  const std::int64_t v = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (v >= count * bins) return;
  const std::int64_t frame = v / bins;
  const int k = static_cast<int>(v - frame * bins);
  const cufftDoubleComplex x = d_spectra[v];
  if (mode == 0) {
    double p = (x.x * x.x + x.y * x.y) * scale;
    if (k >= 1 && k < lastDoubled) p *= 2;
    d_out[v] = p;
  } else if (mode == 1) {
    d_out[v] = hypot(x.x * scale, x.y * scale);
  } else if (mode == 2) {
    d_out[frame * 2 * bins + k] = x.x * scale;
    d_out[frame * 2 * bins + bins + k] = x.y * scale;
  } else {
    d_out[2 * v] = x.x * scale;
    d_out[2 * v + 1] = x.y * scale;
  }
}

// The plan's batch for `frames` frames: rounded up to m 2^e with 8 <= m < 16 (under 1/8 more work).
std::int64_t planBatch(std::int64_t frames) {
  if (frames <= 16) return frames;
  const int shift = std::bit_width(static_cast<std::uint64_t>(frames)) - 4;
  const std::int64_t unit = std::int64_t{1} << shift;
  return (frames + unit - 1) / unit * unit;
}

}  // namespace

GpuFilterResult spectrogramCuda(std::span<const double> x, const SpectrogramLayout& l, std::uint64_t frames,
                                std::span<double> out, int device) {
  const std::size_t bins = l.frequencies, values = l.planes * bins;
  if (out.size() != frames * values) throw std::invalid_argument("spectrogram: the output is not frames x planes x frequencies");
  if (frames > 0 && x.size() < (frames - 1) * l.step + l.nperseg) {
    throw std::invalid_argument("spectrogram: the samples end before the last frame");
  }
  if (l.nfft > static_cast<std::size_t>(INT32_MAX / 2)) throw std::invalid_argument("spectrogram: nfft too large for cuFFT");
  const std::span<const double> used = x.first(frames == 0 ? 0 : (frames - 1) * l.step + l.nperseg);
  return cuda::filterResultOf([&] {
    const cuda::StageEngineLease engine = cuda::leaseStageEngine(device);
    const std::string outOfMemory = "out of GPU memory: the spectrogram's frames and transforms need " +
                                    std::to_string(std::min<std::uint64_t>(frames, kBatchBytes / 8 / l.nfft + 1) *
                                                   (l.nfft + 2 * bins) * sizeof(double) >> 20) +
                                    " MiB";
    return engine->run(outOfMemory, [&](const cuda::OnDevice& on) {
      GpuFilterResult result;
      if (frames == 0) return result;
      const auto perBatch = static_cast<std::int64_t>(std::max<std::size_t>(1, kBatchBytes / sizeof(double) / l.nfft));
      const std::int64_t batchCap = planBatch(std::min<std::int64_t>(static_cast<std::int64_t>(frames), perBatch));
      double* d_window = engine->scratch<double>(0, l.nperseg, on.stream);
      double* d_frames = engine->scratch<double>(1, static_cast<std::size_t>(batchCap) * l.nfft, on.stream);
      auto* d_spectra = engine->scratch<cufftDoubleComplex>(2, static_cast<std::size_t>(batchCap) * bins, on.stream);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(d_window, l.window.data(), l.nperseg * sizeof(double), cudaMemcpyDefault,
                                      on.stream.get()));
      double spread = 0.0;  // sum (i - centre)^2, as the CPU's linear detrend sums it
      for (std::size_t i = 0; i < l.nperseg; ++i) {
        const double t = static_cast<double>(i) - static_cast<double>(l.nperseg - 1) / 2.0;
        spread += t * t;
      }
      const int detrend = l.detrend == SegmentDetrend::none ? 0 : l.detrend == SegmentDetrend::constant ? 1 : 2;
      const int mode = l.mode == SpectrogramMode::psd         ? 0
                       : l.mode == SpectrogramMode::magnitude ? 1
                       : l.complexPairs                       ? 3
                                                              : 2;
      const int lastDoubled = static_cast<int>(l.nfft % 2 ? bins : bins - 1);
      const cuda::StagedSignal<double> signal(used, out, on);
      // The transforms (and their values' copies back) on a stream of their own: the copies in, on
      // the engine's stream, go on without waiting behind them.
      const cuda::Stream transforms;
      cuda::Event arrivedEvent;
      bool sentBack = false;  // each batch's values copied back as made
      const auto transform = [&](std::int64_t first, std::int64_t count) {
        const cuda::FftPlan plan({static_cast<int>(l.nfft), static_cast<int>(planBatch(count)), CUFFT_D2Z},
                                 transforms.view());
        makeFrames<<<static_cast<unsigned>(planBatch(count)), kFrameThreads, 0, transforms.get()>>>(
            signal.d_in() + first * static_cast<std::int64_t>(l.step), count, static_cast<std::int64_t>(l.step),
            static_cast<int>(l.nperseg), static_cast<int>(l.nfft), d_window, detrend, spread, d_frames);
        SIGLAB_CUDA_CHECK_LAUNCH();
        SIGLAB_CUFFT_TRY(cufftExecD2Z(plan.get(), d_frames, d_spectra));
        const std::int64_t outputs = count * static_cast<std::int64_t>(bins);
        frameValues<<<static_cast<unsigned>((outputs + kValueThreads - 1) / kValueThreads), kValueThreads, 0,
                      transforms.get()>>>(d_spectra, count, static_cast<int>(bins), mode, l.scale, lastDoubled,
                                          signal.d_out() + first * static_cast<std::int64_t>(values));
        SIGLAB_CUDA_CHECK_LAUNCH();
        sentBack = signal.copyOutNow(static_cast<std::size_t>(first) * values, static_cast<std::size_t>(count) * values,
                                     transforms.view());
      };
      // Each frame is transformed once its samples are on the device: a batch's kernels wait for
      // the copy of the piece that completes it while the host stages the next piece, and where
      // the result is page-locked its values go back as soon as they are made (from pageable
      // memory, the staged copy back follows the last batch).
      const auto total = static_cast<std::int64_t>(frames);
      std::int64_t next = 0;
      const auto transformArrived = [&](std::size_t samples) {
        const std::int64_t ready =
            samples < l.nperseg ? 0 : std::min<std::int64_t>(total, static_cast<std::int64_t>((samples - l.nperseg) / l.step) + 1);
        if (next >= ready) return;
        arrivedEvent.record(on.stream);
        SIGLAB_CUDA_TRY(cudaStreamWaitEvent(transforms.get(), arrivedEvent.get()));
        for (; next < ready; next += std::min<std::int64_t>(perBatch, ready - next)) {
          transform(next, std::min<std::int64_t>(perBatch, ready - next));
        }
      };
      cuda::Event start, computed, copiedOut;
      start.record(on.stream);
      SIGLAB_CUDA_TRY(cudaStreamWaitEvent(transforms.get(), start.get()));  // the window's copy, above
      signal.copyIn(transformArrived);
      computed.record(transforms.view());
      SIGLAB_CUDA_TRY(cudaStreamWaitEvent(on.stream.get(), computed.get()));
      if (!sentBack) signal.copyOut();  // pageable memory's staged copy back
      copiedOut.record(on.stream);
      copiedOut.synchronize();
      // The copy in overlaps the kernels: the copy back after the last batch is the transfer alone.
      const PhaseTimes phases{computed.millisSince(start), copiedOut.millisSince(computed), copiedOut.millisSince(start)};
      result.kernelMs = phases.kernelMs;
      result.totalMs = phases.totalMs;
      return result;
    });
  });
}

}  // namespace siglab
