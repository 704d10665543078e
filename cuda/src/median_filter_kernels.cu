// The GPU median (cuda_filters.hpp). Samples become ordered integer keys (ordered_key.hpp), so a
// median is a selection among integers and every engine picks the same bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "chunk_pipeline.cuh"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "event_timer.hpp"
#include "gpu_engine.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/median_tile.hpp"
#include "siglab/ordered_key.hpp"

namespace siglab {
namespace {

// The keys of one chunk on the device: its body and the halo around it (haloed_span.hpp), where
// the boundary rule is already applied (the zero mode's 0.0 included), so they are the keys
// medianKeyAt gives the same positions of the whole signal.
template <typename T>
struct ChunkKeys {
  cuda::HaloedSpan<T> in;
  int radius;
  SIGLAB_HD OrderedKey<T> operator()(std::int64_t p) const {
    if (p < 0) return toOrderedKey(in.d_halo[p + radius]);
    if (p < in.n) return toOrderedKey(in.d_body[p]);
    return toOrderedKey(in.d_halo[radius + (p - in.n)]);
  }
};

/* MedianInRegisters: one thread per output of the chunk, its W keys in registers (W is a template
 * argument, so every loop unrolls). The median is the key whose rank range [less, lessOrEqual)
 * holds W/2: W^2 comparisons, no branches, no memory but the loads. For W <= 9 only: the work
 * grows as W^2. */
template <typename T, int W>
__global__ void medianInRegisters(ChunkKeys<T> keys, T* d_out) {
  const std::int64_t i = static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= keys.in.n) return;
  OrderedKey<T> v[W];
#pragma unroll
  for (int j = 0; j < W; ++j) v[j] = keys(i - W / 2 + j);
  const OrderedKey<T> median = medianOfRegisters(v);
  d_out[i] = fromOrderedKey<T>(median);
}

constexpr int kTileThreads = 256;

/* MedianSortedTile: one block per tile of TILE keys (its outputs plus the W - 1 around them). The
 * block sorts the tile's (key, position) pairs once with a bitonic network in shared memory; then
 * each output walks the sorted tile, counting the entries inside its own window, and stops at the
 * (W/2 + 1)-th: its median. A walk costs about TILE / 2 steps, so TILE is chosen near 4 W. */
template <typename T, int TILE>
__global__ void medianSortedTile(ChunkKeys<T> keys, T* d_out, int window) {
  using Key = OrderedKey<T>;
  __shared__ Key s_key[TILE];
  __shared__ std::uint16_t s_pos[TILE];
  const int outputsPerTile = medianTileOutputs(TILE, window);
  const std::int64_t first = static_cast<std::int64_t>(blockIdx.x) * outputsPerTile;
  const std::int64_t left = keys.in.n - first;
  const int outputs = left < outputsPerTile ? static_cast<int>(left) : outputsPerTile;
  for (int e = threadIdx.x; e < TILE; e += blockDim.x) {
    medianTileEntryFrom<T>(keys, first, outputs, window, TILE, e, s_key[e], s_pos[e]);
  }
  __syncthreads();
  for (int k = 2; k <= TILE; k <<= 1) {
    for (int j = k >> 1; j > 0; j >>= 1) {
      for (int e = threadIdx.x; e < TILE; e += blockDim.x) bitonicStep(s_key, s_pos, e, j, k);
      __syncthreads();
    }
  }
  for (int t = threadIdx.x; t < outputs; t += blockDim.x) {
    d_out[first + t] = fromOrderedKey<T>(walkToMedian(s_key, s_pos, TILE, t, window));
  }
}

// The median's chunk kernel (haloed_span.hpp): the chunk's outputs into d_out, on `stream`.
template <typename T>
struct MedianChunkKernel {
  int window;
  void operator()(const cuda::HaloedSpan<T>& in, T* d_out, cuda::StreamView view) const {
    const cudaStream_t stream = view.get();
    const ChunkKeys<T> keys{in, window / 2};
    const auto blocksFor = [](std::int64_t items, std::int64_t per) { return static_cast<unsigned>((items + per - 1) / per); };
    const unsigned perThread = blocksFor(in.n, kTileThreads);
    switch (window) {
      case 1: medianInRegisters<T, 1><<<perThread, kTileThreads, 0, stream>>>(keys, d_out); break;
      case 3: medianInRegisters<T, 3><<<perThread, kTileThreads, 0, stream>>>(keys, d_out); break;
      case 5: medianInRegisters<T, 5><<<perThread, kTileThreads, 0, stream>>>(keys, d_out); break;
      case 7: medianInRegisters<T, 7><<<perThread, kTileThreads, 0, stream>>>(keys, d_out); break;
      case 9: medianInRegisters<T, 9><<<perThread, kTileThreads, 0, stream>>>(keys, d_out); break;
      default: {
        const auto tile = [&](auto size) {
          constexpr int kTile = decltype(size)::value;
          medianSortedTile<T, kTile><<<blocksFor(in.n, medianTileOutputs(kTile, window)), kTileThreads, 0, stream>>>(
              keys, d_out, window);
        };
        switch (medianTileSize(window)) {
          case 256: tile(std::integral_constant<int, 256>{}); break;
          case 512: tile(std::integral_constant<int, 512>{}); break;
          case 1024: tile(std::integral_constant<int, 1024>{}); break;
          case 2048: tile(std::integral_constant<int, 2048>{}); break;
          default: tile(std::integral_constant<int, 4096>{}); break;
        }
      }
    }
    SIGLAB_CUDA_CHECK_LAUNCH();
  }
};

// Streams the median's pipeline runs on, and the share of the signal a chunk takes: chunks of about a
// sixteenth (at most 1 Mi samples) keep the first copy in and the last copy out short against the whole.
constexpr int kMedianStreams = 8;
constexpr std::size_t kMedianChunksPerSignal = 16;

// gpu-median on one device: every run goes through the base's ChunkPipeline (copies both ways
// overlapped with the chunk kernels, pageable memory staged by host threads, device memory read in
// place), its pipelines kept between runs.
class MedianEngine final : public cuda::GpuEngine {
 public:
  explicit MedianEngine(int device) : GpuEngine(std::string(), device) {}
  std::mutex& mutex() { return mutex_; }

  template <typename T>
  GpuFilterResult filter(std::span<const T> in, SignalPart part, std::size_t window, BoundaryMode mode,
                         std::span<T> out, const Progress& progress) {
    const int radius = static_cast<int>(window / 2);
    return cuda::filterResultOf([&] {
      return run("out of GPU memory: the median's " + std::to_string(kMedianStreams) + " chunks in flight do not fit",
                 [&](const cuda::OnDevice&) -> GpuFilterResult {
                   progress.throwIfCancelled();
                   if (part.size() == 0) return {};
                   const cuda::PipelinePass pass = pipelineFor<T>(part.size(), radius).run(
                       in, out, MedianChunkKernel<T>{static_cast<int>(window)}, mode, progress, part.begin, part.end);
                   GpuFilterResult result;
                   result.kernelMs = pass.kernelMs;
                   result.totalMs = pass.totalMs;
                   return result;
                 });
    });
  }

 private:
  void dropDeviceState() noexcept override { pipelines_ = {}; }

  // The pipeline for this element type, rebuilt only when the chunk shape changes. The free memory
  // is asked for only then: the question costs more than a small chunk's kernel.
  template <typename T>
  cuda::ChunkPipeline<T>& pipelineFor(std::size_t samples, int radius) {
    auto& held = std::get<std::unique_ptr<cuda::ChunkPipeline<T>>>(pipelines_);
    const std::size_t unbounded = cuda::ChunkPipeline<T>::chunkFor(samples, radius, kMedianStreams, 0,
                                                                   SIZE_MAX / 2, kMedianChunksPerSignal);
    if (held && held->chunkSamples() == unbounded && held->radius() == radius) return *held;
    std::size_t freeBytes = 0, totalBytes = 0;
    SIGLAB_CUDA_TRY(cudaMemGetInfo(&freeBytes, &totalBytes));
    const std::size_t heldBytes =
        held ? cuda::ChunkPipeline<T>::deviceBytes(held->chunkSamples(), held->radius(), kMedianStreams) : 0;
    const std::size_t chunk = cuda::ChunkPipeline<T>::chunkFor(samples, radius, kMedianStreams, 0,
                                                               (freeBytes + heldBytes) / 10 * 9, kMedianChunksPerSignal);
    if (!held || held->chunkSamples() != chunk || held->radius() != radius) {
      held.reset();  // free the old buffers before taking new ones
      held = std::make_unique<cuda::ChunkPipeline<T>>(chunk, radius, kMedianStreams, cuda::ResultsBack::Yes,
                                                      cuda::Ramps::Yes, cuda::CopyOrder::AnyFromPinned);
    }
    return *held;
  }

  std::mutex mutex_;  // one run at a time on the engine's pipelines
  std::tuple<std::unique_ptr<cuda::ChunkPipeline<double>>, std::unique_ptr<cuda::ChunkPipeline<float>>> pipelines_;
};

// The engine of `device`, made at its first run and never destroyed: CUDA may be gone at exit.
MedianEngine& medianEngineOn(int device) {
  static std::mutex mutex;
  static auto* const engines = new std::map<int, std::unique_ptr<MedianEngine>>;
  const std::lock_guard lock(mutex);
  std::unique_ptr<MedianEngine>& engine = (*engines)[device];
  if (!engine) engine = std::make_unique<MedianEngine>(device);
  return *engine;
}

// Outputs [part.begin, part.end) of the median of the whole of `in`, into the same places of `out`:
// the part's chunks go through the device's pipeline straight from `in` (page-locked input at full
// speed, no host-side gather), each with its halo from the whole signal, so the outputs are the
// whole signal's. Cancel is seen between chunks, progress reported as they come back.
template <typename T>
GpuFilterResult medianOnGpu(std::span<const T> in, SignalPart part, std::size_t window, BoundaryMode mode,
                            std::span<T> out, int device, const Progress& progress) {
  validateMedianWindow(window);
  if (in.size() != out.size()) throw std::invalid_argument("median filter: input and output sizes differ");
  if (part.begin > part.end || part.end > in.size()) throw std::invalid_argument("median filter: part outside the signal");
  static_assert(kGpuMedianMaxWindow == kMedianTileMaxWindow);
  if (window > kGpuMedianMaxWindow) {
    return {GpuStatus::Unavailable, "the GPU median takes windows up to " + std::to_string(kGpuMedianMaxWindow) +
                                        " samples (its shared-memory tile); this one has " + std::to_string(window)};
  }
  if (std::string why = cuda::noDeviceReason(); !why.empty()) return {GpuStatus::Unavailable, why};
  MedianEngine& engine = medianEngineOn(device);
  const std::lock_guard lock(engine.mutex());
  return engine.filter(in, part, window, mode, out, progress);
}

}  // namespace

GpuFilterResult medianFilterCuda(std::span<const double> in, std::size_t window, BoundaryMode mode,
                                 std::span<double> out, int device, const Progress& progress) {
  return medianOnGpu(in, SignalPart{0, in.size()}, window, mode, out, device, progress);
}
GpuFilterResult medianFilterCuda(std::span<const float> in, std::size_t window, BoundaryMode mode,
                                 std::span<float> out, int device, const Progress& progress) {
  return medianOnGpu(in, SignalPart{0, in.size()}, window, mode, out, device, progress);
}
GpuFilterResult medianFilterCudaPart(std::span<const double> in, SignalPart part, std::size_t window,
                                     BoundaryMode mode, std::span<double> out, int device, const Progress& progress) {
  return medianOnGpu(in, part, window, mode, out, device, progress);
}
GpuFilterResult medianFilterCudaPart(std::span<const float> in, SignalPart part, std::size_t window,
                                     BoundaryMode mode, std::span<float> out, int device, const Progress& progress) {
  return medianOnGpu(in, part, window, mode, out, device, progress);
}

}  // namespace siglab
