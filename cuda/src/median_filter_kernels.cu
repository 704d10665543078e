// The GPU median (cuda_filters.hpp). Samples become ordered integer keys (ordered_key.hpp), so a
// median is a selection among integers and every engine picks the same bits.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "event_timer.hpp"
#include "gpu_engine.hpp"
#include "launch_in_parts.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/median_filter.hpp"
#include "siglab/median_tile.hpp"
#include "siglab/ordered_key.hpp"
#include "tuned_filter_kernel.cuh"

namespace siglab {
namespace {

/* MedianInRegisters: one thread per output of [first, end), its W keys in registers (W is a
 * template argument, so every loop unrolls). The median is the key whose rank range
 * [less, lessOrEqual) holds W/2: W^2 comparisons, no branches, no memory but the loads. For W <= 9
 * only: the work grows as W^2. */
template <typename T, int W>
__global__ void medianInRegisters(const T* d_in, T* d_out, std::int64_t n, BoundaryMode mode, std::int64_t first,
                                  std::int64_t end) {
  const std::int64_t i = first + static_cast<std::int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= end) return;
  OrderedKey<T> v[W];
#pragma unroll
  for (int j = 0; j < W; ++j) v[j] = medianKeyAt(d_in, i - W / 2 + j, n, mode);
  const OrderedKey<T> median = medianOfRegisters(v);
  d_out[i] = fromOrderedKey<T>(median);
}

constexpr int kTileThreads = 256;

/* MedianSortedTile: one block per tile of TILE keys (its outputs, from `first` on and before `end`,
 * plus the W - 1 around them). The
 * block sorts the tile's (key, position) pairs once with a bitonic network in shared memory; then
 * each output walks the sorted tile, counting the entries inside its own window, and stops at the
 * (W/2 + 1)-th: its median. A walk costs about TILE / 2 steps, so TILE is chosen near 4 W. */
template <typename T, int TILE>
__global__ void medianSortedTile(const T* d_in, T* d_out, std::int64_t n, int window, BoundaryMode mode,
                                 std::int64_t tilesFrom, std::int64_t end) {
  using Key = OrderedKey<T>;
  __shared__ Key s_key[TILE];
  __shared__ std::uint16_t s_pos[TILE];
  const int outputsPerTile = medianTileOutputs(TILE, window);
  const std::int64_t first = tilesFrom + static_cast<std::int64_t>(blockIdx.x) * outputsPerTile;
  const std::int64_t left = end - first;
  const int outputs = left < outputsPerTile ? static_cast<int>(left) : outputsPerTile;
  for (int e = threadIdx.x; e < TILE; e += blockDim.x) {
    medianTileEntry(d_in, n, mode, first, outputs, window, TILE, e, s_key[e], s_pos[e]);
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

// Outputs [first, end) of the median of d_in's n keys.
template <typename T>
void launchMedian(const T* d_in, T* d_out, std::int64_t n, int window, BoundaryMode mode, std::int64_t first,
                  std::int64_t end, cudaStream_t stream) {
  const auto blocksFor = [](std::int64_t items, std::int64_t per) { return static_cast<unsigned>((items + per - 1) / per); };
  const unsigned perThread = blocksFor(end - first, kTileThreads);
  switch (window) {
    case 1: medianInRegisters<T, 1><<<perThread, kTileThreads, 0, stream>>>(d_in, d_out, n, mode, first, end); return;
    case 3: medianInRegisters<T, 3><<<perThread, kTileThreads, 0, stream>>>(d_in, d_out, n, mode, first, end); return;
    case 5: medianInRegisters<T, 5><<<perThread, kTileThreads, 0, stream>>>(d_in, d_out, n, mode, first, end); return;
    case 7: medianInRegisters<T, 7><<<perThread, kTileThreads, 0, stream>>>(d_in, d_out, n, mode, first, end); return;
    case 9: medianInRegisters<T, 9><<<perThread, kTileThreads, 0, stream>>>(d_in, d_out, n, mode, first, end); return;
    default: break;
  }
  const auto tile = [&](auto size) {
    constexpr int kTile = decltype(size)::value;
    medianSortedTile<T, kTile><<<blocksFor(end - first, medianTileOutputs(kTile, window)), kTileThreads, 0, stream>>>(
        d_in, d_out, n, window, mode, first, end);
  };
  switch (medianTileSize(window)) {
    case 256: return tile(std::integral_constant<int, 256>{});
    case 512: return tile(std::integral_constant<int, 512>{});
    case 1024: return tile(std::integral_constant<int, 1024>{});
    case 2048: return tile(std::integral_constant<int, 2048>{});
    default: return tile(std::integral_constant<int, 4096>{});
  }
}

// Outputs a kernel launch computes: about 2^31 key comparisons (a few milliseconds), whole tiles.
std::int64_t outputsPerLaunch(int window) {
  const std::int64_t outputs = std::clamp<std::int64_t>((std::int64_t{1} << 31) / window, 1 << 20, 1 << 26);
  if (window <= 9) return outputs;
  const std::int64_t perTile = medianTileOutputs(medianTileSize(window), window);
  return outputs / perTile * perTile;
}

// The resident part of medianOnGpu, on the engine's device and stream.
template <typename T>
GpuFilterResult medianResident(std::span<const T> in, SignalPart part, std::size_t window, BoundaryMode mode,
                               std::span<T> out, const Progress& progress, const cuda::OnDevice& on) {
  progress.throwIfCancelled();
  if (part.size() == 0) return {};
  const auto start = std::chrono::steady_clock::now();
  const std::size_t radius = window / 2, padded = part.size() + 2 * radius;
  const auto samples = static_cast<std::int64_t>(part.size()), r = static_cast<std::int64_t>(radius);
  // Progress in samples copied and outputs computed, an output weighing about its share of the time.
  const std::uint64_t outputWeight = std::max<std::uint64_t>(1, window / 16);
  cuda::WorkShare work(progress, static_cast<std::uint64_t>(samples) * (2 + outputWeight));
  std::vector<T> halo(2 * radius);
  cuda::fillHalo(in, static_cast<std::int64_t>(part.begin), static_cast<std::int64_t>(part.end),
                 static_cast<int>(radius), mode, halo.data());
  const cuda::StreamView view = on.stream;
  cuda::DeviceBuffer<T> d_in(padded, view), d_out(padded, view);
  d_in.copyFrom(halo.data(), radius);
  cuda::runInParts(view, 0, samples, cuda::kCopyPartSamples, work, 1, [&](std::int64_t b, std::int64_t e) {
    d_in.copyFrom(in.data() + part.begin + b, static_cast<std::size_t>(e - b), radius + static_cast<std::size_t>(b));
  });
  d_in.copyFrom(halo.data() + radius, radius, radius + part.size());
  GpuFilterResult result;
  cuda::EventTimer timer(view);
  timer.start();
  cuda::runInParts(view, r, r + samples, outputsPerLaunch(static_cast<int>(window)), work, outputWeight,
                   [&](std::int64_t b, std::int64_t e) {
                     launchMedian(d_in.data(), d_out.data(), static_cast<std::int64_t>(padded),
                                  static_cast<int>(window), mode, b, e, view.get());
                     SIGLAB_CUDA_CHECK_LAUNCH();
                   });
  result.kernelMs = timer.stopMs();
  cuda::runInParts(view, 0, samples, cuda::kCopyPartSamples, work, 1, [&](std::int64_t b, std::int64_t e) {
    d_out.copyTo(out.data() + part.begin + b, static_cast<std::size_t>(e - b), radius + static_cast<std::size_t>(b));
  });
  result.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return result;
}

// Outputs [part.begin, part.end) of the median of the whole of `in`, into the same places of `out`.
// The part and its halo go to the device as one padded run: the halo's values from the boundary
// rule on the host (2 r samples), the part straight from `in` (page-locked input at full speed, no
// host-side gather). The kernel filters outputs r .. r + part of the run, which read only inside
// it, so they are the whole signal's, and only they come back. Copies and kernel go in parts
// (launch_in_parts.hpp): Cancel is seen within milliseconds, progress as they finish.
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
  const std::size_t radius = window / 2, padded = part.size() + 2 * radius;
  cuda::GpuEngine engine(cuda::noDeviceReason(), device);
  return cuda::filterResultOf([&] {
    return engine.run("out of GPU memory: the signal and result need " + std::to_string(2 * padded * sizeof(T) >> 20) +
                          " MiB",
                      [&](const cuda::OnDevice& on) { return medianResident(in, part, window, mode, out, progress, on); });
  });
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
