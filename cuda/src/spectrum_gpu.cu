// Welch's spectrum with cuFFT on one device or several (each its own ranges of segments): the
// signal goes through the engine base's ChunkPipeline (chunk_pipeline.cuh), a chunk of whole
// segments' starts at a time with the rest of its last segments (the overlap) as the chunk's halo, copied in on
// the pipeline's streams (pageable input staged by host threads) while one compute stream per
// device transforms the chunk before: there one block per segment removes the mean and applies the
// window, one batched D2Z plan transforms the chunk, and one thread per frequency adds the chunk's
// |X_k|^2 to its range's running sum. Nothing comes back but the sums.
#include <cufft.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "chunk_pipeline.cuh"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_scope.hpp"
#include "device_split.hpp"
#include "event_timer.hpp"
#include "fft_plan_cache.hpp"
#include "gpu_engine.hpp"
#include "haloed_span.hpp"
#include "on_each_part.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/split_filter.hpp"

namespace siglab {
namespace {

constexpr int kFrameThreads = 256;
// Samples a chunk: about ten chunks at 10M, so the copies of one overlap the transforms of another;
// and at most 64 MiB of frames a chunk, however much the segments overlap.
constexpr std::size_t kChunkBytes = std::size_t{8} << 20;
constexpr std::size_t kFrameBytes = std::size_t{64} << 20;
// Chunks in flight on a device: one copied in while the one before is transformed, and one ahead.
constexpr int kWelchSlots = 4;

// Sample p of a chunk: its body, then its halo's right half (haloed_span.hpp), where a segment that
// starts in the chunk finds the rest of its samples. The chunk's last segment starts `step` before
// its end, so the halo holds the overlap, segment - step samples (none without overlap); the left
// half, the same size, is never read.
struct ChunkSamples {
  cuda::HaloedSpan<double> in;
  int radius;
  __device__ double operator()(std::int64_t p) const { return p < in.n ? in.d_body[p] : in.d_halo[radius + (p - in.n)]; }
};

// Frame s of the chunk: (x[first + s * step + j] - mean) * window[j] for j = 0..n-1, one block a
// segment. The mean is a fixed-order block reduction (each thread a strided partial sum, then a tree).
__global__ void makeFrames(ChunkSamples samples, std::int64_t first, std::size_t step, int n, const double* d_window,
                           bool detrend, double* d_frames) {
  __shared__ double s_sum[kFrameThreads];
  const std::int64_t segment = first + static_cast<std::int64_t>(blockIdx.x) * static_cast<std::int64_t>(step);
  double* frame = d_frames + static_cast<std::size_t>(blockIdx.x) * n;
  double mean = 0.0;
  if (detrend) {
    double partial = 0.0;
    for (int j = threadIdx.x; j < n; j += blockDim.x) partial += samples(segment + j);
    s_sum[threadIdx.x] = partial;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
      __syncthreads();
    }
    mean = s_sum[0] / n;
  }
  for (int j = threadIdx.x; j < n; j += blockDim.x) frame[j] = (samples(segment + j) - mean) * d_window[j];
}

// d_sums[k] += |X_k|^2 over `segments` transforms, one thread a frequency.
__global__ void addPowers(const cufftDoubleComplex* d_spectra, int bins, int segments, double* d_sums) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= bins) return;
  double sum = d_sums[k];
  for (int s = 0; s < segments; ++s) {
    const cufftDoubleComplex v = d_spectra[static_cast<std::size_t>(s) * bins + k];
    sum += v.x * v.x + v.y * v.y;
  }
  d_sums[k] = sum;
}

// Everything one spectrum shape needs on one device, kept between calls: a cuFFT plan takes
// longer to make than the transforms of a 10M-sample signal. The pipeline's chunks hold perChunk
// segments' starts (its ramped first and last chunks fewer); their transforms run in chunk order on
// the compute stream. d_sums holds one running sum per range of segments this workspace sums. The
// window stays on the device between calls (made again only for another window), and the sums come
// back through pinned memory (up to kPinnedSumsBytes of them): a run waits for the device once, at its end.
constexpr std::size_t kPinnedSumsBytes = std::size_t{16} << 20;
class WelchWorkspace {
 public:
  WelchWorkspace(int device, std::size_t segment, std::size_t step, std::size_t perChunk, std::size_t ranges)
      : device_(device), segment_(segment), step_(step), perChunk_(perChunk), ranges_(ranges),
        d_window(segment, compute.view()), d_frames(perChunk * segment, compute.view()),
        d_sums(ranges * (segment / 2 + 1), compute.view()), d_spectra(perChunk * (segment / 2 + 1), compute.view()),
        h_sums(ranges * (segment / 2 + 1) * sizeof(double) <= kPinnedSumsBytes ? ranges * (segment / 2 + 1) : 0,
               compute.view()),
        plan({static_cast<int>(segment), static_cast<int>(perChunk), CUFFT_D2Z}, compute.view()),
        pipeline(perChunk * step, static_cast<int>(segment - step), kWelchSlots, cuda::ResultsBack::No,
                 cuda::Ramps::No) {}
  bool fits(int device, std::size_t segment, std::size_t step, std::size_t perChunk, std::size_t ranges) const {
    return device == device_ && segment == segment_ && step == step_ && perChunk == perChunk_ && ranges == ranges_;
  }
  int device() const { return device_; }

 private:
  int device_;
  std::size_t segment_, step_, perChunk_, ranges_;

 public:
  cuda::Stream compute;  // first: the buffers and the plan are made for it
  cuda::DeviceBuffer<double> d_window, d_frames, d_sums;
  cuda::DeviceBuffer<cufftDoubleComplex> d_spectra;
  cuda::PinnedBuffer<double> h_sums;
  std::optional<SpectrumWindow> window;  // the one d_window holds
  cuda::FftPlan plan;
  cuda::Event copied, consumed;  // a chunk in on its slot's stream; its transforms done
  cuda::ChunkPipeline<double> pipeline;
};

// One workspace a part (the last shapes and devices used), never destroyed: CUDA may be gone at exit.
struct WorkspaceCache {
  std::mutex mutex;
  std::vector<std::unique_ptr<WelchWorkspace>> held;
  std::vector<std::unique_ptr<cuda::GpuEngine>> engines;  // one a part, kept with its stream
};
WorkspaceCache& workspaceCache() {
  static auto* const cache = new WorkspaceCache;
  return *cache;
}

// Frees a workspace on its own device.
void release(std::unique_ptr<WelchWorkspace>& workspace) {
  if (!workspace) return;
  const cuda::DeviceScope scope(workspace->device(), std::nothrow);
  workspace.reset();
}

// The sum of |X_k|^2 over all segments is the sum, in range order, of the sums over fixed ranges of
// segments, each from zero in segment order: a split gives each device whole ranges, so the
// additions are the same on any number of devices. At most kSumRanges ranges, fewer where their
// sums would take more than kSumBytes.
constexpr std::size_t kSumRanges = 8;
constexpr std::size_t kSumBytes = std::size_t{256} << 20;

std::vector<SignalPart> segmentRanges(std::size_t segments, std::size_t bins) {
  const std::size_t ranges = std::clamp<std::size_t>(kSumBytes / (bins * sizeof(double)), 1, kSumRanges);
  return splitIntoParts(segments, ranges);
}

// Welch's chunk kernel (haloed_span.hpp): the segments that start in the chunk, framed, transformed
// and added to their ranges' sums on the compute stream, after the chunk before; the slot's stream
// waits for them before its buffers take the next chunk.
struct WelchChunkKernel {
  WelchWorkspace* ws;
  const WelchOptions* options;
  std::size_t step, bins;
  std::span<const SignalPart> ranges;  // this device's, in segments; the ranges' sums in that order
  void operator()(const cuda::HaloedSpan<double>& in, double*, cuda::StreamView slot) const {
    const auto firstIn = [&](std::int64_t sample) {  // the first segment starting at or after `sample`
      return static_cast<std::size_t>((sample + static_cast<std::int64_t>(step) - 1) / static_cast<std::int64_t>(step));
    };
    const std::size_t first = std::max(firstIn(in.begin), ranges.front().begin);
    const std::size_t end = std::min(firstIn(in.begin + in.n), ranges.back().end);
    if (first >= end) return;
    const cuda::StreamView computeView = ws->compute.view();
    const cudaStream_t compute = computeView.get();
    ws->copied.record(slot);
    SIGLAB_CUDA_TRY(cudaStreamWaitEvent(compute, ws->copied.get()));
    const std::size_t n = options->segment;
    makeFrames<<<static_cast<unsigned>(end - first), kFrameThreads, 0, compute>>>(
        ChunkSamples{in, ws->pipeline.radius()}, static_cast<std::int64_t>(first * step) - in.begin, step,
        static_cast<int>(n), ws->d_window.data(), options->detrend == Detrend::constant, ws->d_frames.data());
    SIGLAB_CUDA_CHECK_LAUNCH();
    // The plan transforms perChunk frames; in a shorter chunk the extra ones are stale and
    // addPowers reads only the chunk's.
    SIGLAB_CUFFT_TRY(cufftExecD2Z(ws->plan.get(), ws->d_frames.data(), ws->d_spectra.data()));
    for (std::size_t r = 0; r < ranges.size(); ++r) {  // a chunk may end one range and begin the next
      const std::size_t from = std::max(first, ranges[r].begin), to = std::min(end, ranges[r].end);
      if (from >= to) continue;
      addPowers<<<static_cast<unsigned>((bins + 255) / 256), 256, 0, compute>>>(
          ws->d_spectra.data() + (from - first) * bins, static_cast<int>(bins), static_cast<int>(to - from),
          ws->d_sums.data() + r * bins);
      SIGLAB_CUDA_CHECK_LAUNCH();
    }
    ws->consumed.record(computeView);
    SIGLAB_CUDA_TRY(cudaStreamWaitEvent(slot.get(), ws->consumed.get()));
  }
};

// The sums over `ranges` (each [first, end) segments, one after another) on one device (current),
// into `sums` (ranges x bins). The workspace keeps its own streams: it outlives the run.
void sumRangesOnDevice(std::span<const double> x, const WelchOptions& options, std::size_t perChunk, int device,
                       std::span<const SignalPart> ranges, std::unique_ptr<WelchWorkspace>& held, double* sums,
                       const Progress& progress) {
  const std::size_t n = options.segment, bins = frequencyCount(options);
  const std::size_t step = n - options.overlapOrDefault();
  if (!held || !held->fits(device, n, step, perChunk, ranges.size())) {
    release(held);  // free the old buffers before taking new ones
    held = std::make_unique<WelchWorkspace>(device, n, step, perChunk, ranges.size());
  }
  WelchWorkspace& ws = *held;
  const cuda::StreamView computeView = ws.compute.view();
  if (ws.window != options.window) {
    const std::vector<double> window = spectrumWindow(options.window, n);
    ws.d_window.copyFrom(window.data(), n);
    computeView.synchronize();  // before `window` goes
    ws.window = options.window;
  }
  // Queued before the first chunk's transforms on the same stream.
  SIGLAB_CUDA_TRY(cudaMemsetAsync(ws.d_sums.data(), 0, ranges.size() * bins * sizeof(double), computeView.get()));
  // Outputs [first segment's start, last segment's start + step): every segment starts in one chunk;
  // the halo's right half (the overlap, inside the signal) holds the rest of its samples.
  ws.pipeline.run(x, std::span<double>(), WelchChunkKernel{&ws, &options, step, bins, ranges}, BoundaryMode::Zero,
                  progress, ranges.front().begin * step, ranges.back().end * step);
  const std::size_t count = ranges.size() * bins;
  const bool pinned = ws.h_sums.size() >= count;
  SIGLAB_CUDA_TRY(cudaMemcpyAsync(pinned ? ws.h_sums.data() : sums, ws.d_sums.data(), count * sizeof(double),
                                  cudaMemcpyDeviceToHost, computeView.get()));
  computeView.synchronize();
  if (pinned) std::copy_n(ws.h_sums.data(), count, sums);
}

// One device's share of a split run's progress: the run's fraction is the mean of the parts'.
class PartProgress {
 public:
  PartProgress(const Progress& whole, std::size_t parts) : whole_(whole), fractions_(parts, 0.0) {}
  Progress forPart(std::size_t p) {
    Progress part;
    part.cancelFlag = whole_.cancelFlag;
    if (whole_.onProgress) {
      part.onProgress = [this, p](double fraction) {
        const std::lock_guard lock(mutex_);
        fractions_[p] = fraction;
        double sum = 0;
        for (double f : fractions_) sum += f;
        whole_.report(sum / static_cast<double>(fractions_.size()));
      };
    }
    return part;
  }

 private:
  const Progress& whole_;
  std::mutex mutex_;
  std::vector<double> fractions_;
};

// Every device's ranges at once, then their sums added in range order on the host.
Spectrum welchOnDevices(std::span<const double> x, const WelchOptions& options, std::size_t chunkSegments,
                        const std::vector<int>& devices, std::vector<std::unique_ptr<WelchWorkspace>>& held,
                        std::vector<std::unique_ptr<cuda::GpuEngine>>& engines, const Progress& progress) {
  const std::size_t n = options.segment, bins = frequencyCount(options);
  const std::size_t step = n - options.overlapOrDefault(), segments = segmentCount(options, x.size());
  // The chunk (and the plan's batch) depends on the signal alone, never on the split: cuFFT may
  // choose another algorithm for another batch.
  std::size_t perChunk = chunkSegments ? chunkSegments
                                       : std::max<std::size_t>(1, std::min(kChunkBytes / (step * sizeof(double)),
                                                                           kFrameBytes / (n * sizeof(double))));
  perChunk = std::min(perChunk, segments);
  const std::vector<SignalPart> ranges = segmentRanges(segments, bins);
  const std::vector<SignalPart> parts = splitIntoParts(ranges.size(), devices.size());  // ranges each device sums
  while (held.size() < parts.size()) held.emplace_back();
  for (std::size_t p = parts.size(); p < held.size(); ++p) release(held[p]);  // a longer list's, no longer used
  engines.resize(std::max(engines.size(), parts.size()));
  for (std::size_t p = 0; p < parts.size(); ++p) {  // welchGpu checked every listed device
    if (!engines[p] || engines[p]->device() != devices[p]) {
      engines[p] = std::make_unique<cuda::GpuEngine>(std::string(), devices[p]);
    }
  }
  std::vector<double> rangeSums(ranges.size() * bins);
  PartProgress partProgress(progress, parts.size());
  std::vector<Progress> partProgresses;
  for (std::size_t p = 0; p < parts.size(); ++p) partProgresses.push_back(partProgress.forPart(p));
  cuda::onEachPart(parts.size(), [&](std::size_t p) {
    engines[p]->run("the GPU has too little free memory for this spectrum", [&](const cuda::OnDevice& on) {
      sumRangesOnDevice(x, options, perChunk, on.device,
                        std::span<const SignalPart>(ranges).subspan(parts[p].begin, parts[p].size()), held[p],
                        rangeSums.data() + parts[p].begin * bins, partProgresses[p]);
    });
  });
  std::vector<double> sums(rangeSums.begin(), rangeSums.begin() + static_cast<std::ptrdiff_t>(bins));
  for (std::size_t r = 1; r < ranges.size(); ++r) {
    for (std::size_t k = 0; k < bins; ++k) sums[k] += rangeSums[r * bins + k];
  }
  finishPower(sums, options, segments);
  return Spectrum{spectrumFrequencies(options), std::move(sums)};
}

const std::vector<DeviceInfo>& probedDevices() {
  static const std::vector<DeviceInfo> probed = probeDevices();  // once: a probe takes longer than a spectrum
  return probed;
}

}  // namespace

std::string gpuSpectrumUnavailableReason() {
  const DeviceInfo& device = probedDevices().front();
  return device.available ? std::string() : device.reason;
}

GpuSpectrumRun welchGpu(std::span<const double> x, const WelchOptions& options, std::size_t chunkSegments,
                        const std::vector<int>& devices, const Progress& progress) {
  validate(options, x.size());
  if (std::string reason = gpuSpectrumUnavailableReason(); !reason.empty()) return {false, reason, {}};
  const std::vector<int> listed = devices.empty() ? std::vector<int>{0} : devices;
  for (int device : listed) {
    if (std::string why = cuda::deviceProblem(probedDevices(), device); !why.empty()) return {false, why, {}};
  }
  if (options.segment < 2 || options.segment > (std::size_t{1} << 30)) {
    return {false, "the GPU spectrum takes segments of 2 to 2^30 samples", {}};
  }
  WorkspaceCache& cache = workspaceCache();
  const std::lock_guard lock(cache.mutex);
  auto releaseAll = [&] {
    for (auto& workspace : cache.held) release(workspace);
  };
  try {
    progress.throwIfCancelled();
    return {true, {}, welchOnDevices(x, options, chunkSegments, listed, cache.held, cache.engines, progress)};
  } catch (const cuda::GpuRunError& e) {
    releaseAll();
    return {false, e.what(), {}};
  }
}

}  // namespace siglab
