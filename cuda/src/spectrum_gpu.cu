// Welch's spectrum with cuFFT on one device or several (each its own ranges of segments): the
// signal goes to a device a chunk of whole segments at a time, straight from page-locked memory
// (else staged through pinned buffers), on copy streams that run ahead of the compute stream; there
// one block per segment removes the mean and applies the window, one batched D2Z plan transforms
// the chunk, and one thread per frequency adds the chunk's |X_k|^2 to its range's running sum.
#include <cufft.h>

#include <algorithm>
#include <exception>
#include <memory>
#include <mutex>
#include <new>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_scope.hpp"
#include "device_split.hpp"
#include "event_timer.hpp"
#include "fft_plan_cache.hpp"
#include "gpu_engine.hpp"
#include "host_copy.hpp"
#include "on_each_part.hpp"
#include "pinned_host.cuh"
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

// Frame s of the chunk: (x[s * step + j] - mean) * window[j] for j = 0..n-1, one block a segment.
// The mean is a fixed-order block reduction (each thread a strided partial sum, then a tree).
__global__ void makeFrames(const double* d_signal, std::size_t step, int n, const double* d_window, bool detrend,
                           double* d_frames) {
  __shared__ double s_sum[kFrameThreads];
  const double* segment = d_signal + static_cast<std::size_t>(blockIdx.x) * step;
  double* frame = d_frames + static_cast<std::size_t>(blockIdx.x) * n;
  double mean = 0.0;
  if (detrend) {
    double partial = 0.0;
    for (int j = threadIdx.x; j < n; j += blockDim.x) partial += segment[j];
    s_sum[threadIdx.x] = partial;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
      if (threadIdx.x < half) s_sum[threadIdx.x] += s_sum[threadIdx.x + half];
      __syncthreads();
    }
    mean = s_sum[0] / n;
  }
  for (int j = threadIdx.x; j < n; j += blockDim.x) frame[j] = (segment[j] - mean) * d_window[j];
}

// d_sums[k] += |X_k|^2 over the chunk's `segments` transforms, one thread a frequency.
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
// longer to make than the transforms of a 10M-sample signal. Chunk c goes to slot c % kSlots on
// that slot's copy stream while the compute stream transforms the chunk before it. d_sums holds
// one running sum per range of segments this workspace sums.
class WelchWorkspace {
 public:
  WelchWorkspace(int device, std::size_t segment, std::size_t step, std::size_t perChunk, std::size_t ranges)
      : device_(device), segment_(segment), step_(step), perChunk_(perChunk), ranges_(ranges),
        chunkSamples_((perChunk - 1) * step + segment), d_window(segment, compute.view()),
        d_frames(perChunk * segment, compute.view()), d_sums(ranges * (segment / 2 + 1), compute.view()),
        d_spectra(perChunk * (segment / 2 + 1), compute.view()),
        plan({static_cast<int>(segment), static_cast<int>(perChunk), CUFFT_D2Z}, compute.view()) {
    for (int s = 0; s < kSlots; ++s) slots.emplace_back(chunkSamples_);
  }
  bool fits(int device, std::size_t segment, std::size_t step, std::size_t perChunk, std::size_t ranges) const {
    return device == device_ && segment == segment_ && step == step_ && perChunk == perChunk_ && ranges == ranges_;
  }
  int device() const { return device_; }
  std::size_t chunkSamples() const { return chunkSamples_; }

  struct Slot {
    explicit Slot(std::size_t samples) : d_signal(samples, copy.view()) {}
    cuda::Stream copy;  // first: the buffers are made for it
    cuda::DeviceBuffer<double> d_signal;
    cuda::PinnedBuffer<double> h_stage;  // made on first use: only pageable input is staged
    cuda::Event copied, consumed;
    bool used = false;
  };
  static constexpr int kSlots = 3;

 private:
  int device_;
  std::size_t segment_, step_, perChunk_, ranges_, chunkSamples_;

 public:
  cuda::Stream compute;  // first: the buffers and the plan are made for it
  cuda::DeviceBuffer<double> d_window, d_frames, d_sums;
  cuda::DeviceBuffer<cufftDoubleComplex> d_spectra;
  cuda::FftPlan plan;
  std::vector<Slot> slots;
};

// One workspace a part (the last shapes and devices used), never destroyed: CUDA may be gone at exit.
struct WorkspaceCache {
  std::mutex mutex;
  std::vector<std::unique_ptr<WelchWorkspace>> held;
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

// The sums over `ranges` (each [first, end) segments) on one device (current), into `sums` (ranges x bins).
// The workspace keeps its own streams: it outlives the run.
void sumRangesOnDevice(std::span<const double> x, const WelchOptions& options, std::size_t perChunk, int device,
                       std::span<const SignalPart> ranges, std::unique_ptr<WelchWorkspace>& held, double* sums) {
  const std::size_t n = options.segment, bins = frequencyCount(options);
  const std::size_t step = n - options.overlapOrDefault();
  if (!held || !held->fits(device, n, step, perChunk, ranges.size())) {
    release(held);  // free the old buffers before taking new ones
    held = std::make_unique<WelchWorkspace>(device, n, step, perChunk, ranges.size());
  }
  WelchWorkspace& ws = *held;
  const cuda::StreamView computeView = ws.compute.view();
  const cudaStream_t compute = computeView.get();

  const std::vector<double> window = spectrumWindow(options.window, n);
  ws.d_window.copyFrom(window.data(), n);
  SIGLAB_CUDA_TRY(cudaMemsetAsync(ws.d_sums.data(), 0, ranges.size() * bins * sizeof(double), compute));
  const bool pinned = cuda::isPinnedHost(x.data());
  std::size_t c = 0;
  for (std::size_t r = 0; r < ranges.size(); ++r) {
    double* d_rangeSums = ws.d_sums.data() + r * bins;
    for (std::size_t first = ranges[r].begin; first < ranges[r].end; ++c, first += perChunk) {
      const std::size_t count = std::min(perChunk, ranges[r].end - first);
      const std::size_t samples = (count - 1) * step + n;
      WelchWorkspace::Slot& slot = ws.slots[c % WelchWorkspace::kSlots];
      const cuda::StreamView copyView = slot.copy.view();
      const cudaStream_t copy = copyView.get();
      const double* source = x.data() + first * step;
      if (slot.used) SIGLAB_CUDA_TRY(cudaStreamWaitEvent(copy, slot.consumed.get()));  // its last chunk is transformed
      if (!pinned) {
        if (slot.h_stage.size() == 0) slot.h_stage = cuda::PinnedBuffer<double>(ws.chunkSamples(), copyView);
        if (slot.used) SIGLAB_CUDA_TRY(cudaEventSynchronize(slot.copied.get()));  // its staging buffer is free
        // Input only (the result is a few bins): every core stages, while the slots before are in flight.
        cuda::parallelCopy(slot.h_stage.data(), source, samples * sizeof(double), 16);
        source = slot.h_stage.data();
      }
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(slot.d_signal.data(), source, samples * sizeof(double), cudaMemcpyHostToDevice, copy));
      slot.copied.record(copyView);
      SIGLAB_CUDA_TRY(cudaStreamWaitEvent(compute, slot.copied.get()));
      makeFrames<<<static_cast<unsigned>(count), kFrameThreads, 0, compute>>>(
          slot.d_signal.data(), step, static_cast<int>(n), ws.d_window.data(), options.detrend == Detrend::constant,
          ws.d_frames.data());
      SIGLAB_CUDA_CHECK_LAUNCH();
      // The plan transforms perChunk frames; in a shorter chunk the extra ones are stale and
      // addPowers reads only the first `count`.
      SIGLAB_CUFFT_TRY(cufftExecD2Z(ws.plan.get(), ws.d_frames.data(), ws.d_spectra.data()));
      addPowers<<<static_cast<unsigned>((bins + 255) / 256), 256, 0, compute>>>(
          ws.d_spectra.data(), static_cast<int>(bins), static_cast<int>(count), d_rangeSums);
      SIGLAB_CUDA_CHECK_LAUNCH();
      slot.consumed.record(computeView);
      slot.used = true;
    }
  }
  SIGLAB_CUDA_TRY(cudaMemcpyAsync(sums, ws.d_sums.data(), ranges.size() * bins * sizeof(double), cudaMemcpyDeviceToHost,
                                  compute));
  SIGLAB_CUDA_TRY(cudaStreamSynchronize(compute));
}

// Every device's ranges at once, then their sums added in range order on the host.
Spectrum welchOnDevices(std::span<const double> x, const WelchOptions& options, std::size_t chunkSegments,
                        const std::vector<int>& devices, std::vector<std::unique_ptr<WelchWorkspace>>& held) {
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
  std::vector<double> rangeSums(ranges.size() * bins);
  cuda::onEachPart(parts.size(), [&](std::size_t p) {
    cuda::GpuEngine engine(std::string(), devices[p]);  // welchGpu checked every listed device
    engine.run("the GPU has too little free memory for this spectrum", [&](const cuda::OnDevice& on) {
      sumRangesOnDevice(x, options, perChunk, on.device,
                        std::span<const SignalPart>(ranges).subspan(parts[p].begin, parts[p].size()), held[p],
                        rangeSums.data() + parts[p].begin * bins);
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
                        const std::vector<int>& devices) {
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
    return {true, {}, welchOnDevices(x, options, chunkSegments, listed, cache.held)};
  } catch (const cuda::GpuRunError& e) {
    releaseAll();
    return {false, e.what(), {}};
  }
}

}  // namespace siglab
