// findPeaksCuda (cuda_stages.hpp): find_peaks' local maxima, height and threshold on the GPU in
// three kernels (count a tile's peaks; scan the counts; write each tile's peaks at its offset, in
// index order), distance's greedy choice on the host over the few candidates left.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_engine.hpp"
#include "siglab/cuda_stages.hpp"
#include "stage_engine.hpp"

namespace siglab {
namespace {

constexpr int kWarp = 32;
constexpr int kTileThreads = 1024;
constexpr int kTileRounds = 8;
constexpr std::int64_t kTile = std::int64_t{kTileThreads} * kTileRounds;

struct PeakTest {
  bool height, threshold;
  double minHeight, minThreshold;
};

/* PeakAt: the peak whose plateau starts at i (SciPy's _local_maxima_1d: a rise into i, equal
 * samples up to ahead - 1, a fall after; the middle, rounded down), through height and threshold
 * as PeakFinder::offer tests them; -1 where none. A long plateau is walked by its one thread. */
__device__ std::int64_t peakAt(const double* x, std::int64_t n, std::int64_t i, const PeakTest& test) {
  if (i < 1 || i >= n - 1) return -1;
  const double v = x[i];
  if (!(x[i - 1] < v)) return -1;
  if (test.height && !(test.minHeight <= v)) return -1;
  std::int64_t ahead = i + 1;
  while (ahead < n - 1 && x[ahead] == v) ++ahead;
  if (!(x[ahead] < v)) return -1;
  const std::int64_t mid = (i + ahead - 1) / 2;
  if (test.threshold) {
    const double left = v - x[mid - 1], right = v - x[mid + 1];
    if (!(test.minThreshold <= (right < left ? right : left))) return -1;
  }
  return mid;
}

/* TilePeaks: block b counts the peaks starting in its tile of kTile samples into d_counts[b]. */
__global__ void tilePeaks(const double* d_x, std::int64_t n, PeakTest test, unsigned* d_counts) {
  __shared__ unsigned s_count;
  if (threadIdx.x == 0) s_count = 0;
  __syncthreads();
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * kTile;
  unsigned count = 0;
  for (int r = 0; r < kTileRounds; ++r) count += peakAt(d_x, n, tile + r * kTileThreads + threadIdx.x, test) >= 0;
  for (int offset = kWarp / 2; offset > 0; offset /= 2) count += __shfl_down_sync(0xffffffffu, count, offset);
  if (threadIdx.x % kWarp == 0) atomicAdd(&s_count, count);
  __syncthreads();
  if (threadIdx.x == 0) d_counts[blockIdx.x] = s_count;
}

/* ScanCounts: one block turns the tiles' counts into their offsets (exclusive), the total last. */
__global__ void scanCounts(const unsigned* d_counts, std::int64_t tiles, std::uint64_t* d_offsets) {
  __shared__ std::uint64_t s_sums[kTileThreads];
  const std::int64_t per = (tiles + kTileThreads - 1) / kTileThreads;
  const std::int64_t begin = threadIdx.x * per, end = begin + per < tiles ? begin + per : tiles;
  std::uint64_t sum = 0;
  for (std::int64_t t = begin; t < end; ++t) sum += d_counts[t];
  s_sums[threadIdx.x] = sum;
  __syncthreads();
  for (int step = 1; step < kTileThreads; step *= 2) {  // inclusive scan of the threads' sums
    const std::uint64_t add = threadIdx.x >= step ? s_sums[threadIdx.x - step] : 0;
    __syncthreads();
    s_sums[threadIdx.x] += add;
    __syncthreads();
  }
  std::uint64_t offset = threadIdx.x == 0 ? 0 : s_sums[threadIdx.x - 1];
  for (std::int64_t t = begin; t < end; ++t) {
    d_offsets[t] = offset;
    offset += d_counts[t];
  }
  if (threadIdx.x == kTileThreads - 1) d_offsets[tiles] = s_sums[kTileThreads - 1];
}

/* WritePeaks: block b writes its tile's peaks (index, height) from d_offsets[b] in index order: a
 * round's peaks are placed by a warp ballot's prefix and the warps' totals scanned in shared memory. */
__global__ void writePeaks(const double* d_x, std::int64_t n, PeakTest test, const std::uint64_t* d_offsets,
                           std::uint64_t* d_index, double* d_height) {
  __shared__ unsigned s_warps[kTileThreads / kWarp];
  const std::int64_t tile = static_cast<std::int64_t>(blockIdx.x) * kTile;
  const int lane = threadIdx.x % kWarp, warp = threadIdx.x / kWarp;
  std::uint64_t next = d_offsets[blockIdx.x];
  for (int r = 0; r < kTileRounds; ++r) {
    const std::int64_t peak = peakAt(d_x, n, tile + r * kTileThreads + threadIdx.x, test);
    const unsigned ballot = __ballot_sync(0xffffffffu, peak >= 0);
    if (lane == 0) s_warps[warp] = __popc(ballot);
    __syncthreads();
    unsigned before = 0, total = 0;
    for (int w = 0; w < kTileThreads / kWarp; ++w) {
      before += w < warp ? s_warps[w] : 0;
      total += s_warps[w];
    }
    if (peak >= 0) {
      const std::uint64_t at = next + before + __popc(ballot & ((1u << lane) - 1));
      d_index[at] = static_cast<std::uint64_t>(peak);
      d_height[at] = d_x[peak];
    }
    next += total;
    __syncthreads();
  }
}

// scipy.signal._peak_finding_utils._select_by_peak_distance, visiting peaks from the highest (ties:
// the later first, as PeakFinder does): each kept peak removes the lower ones closer than `distance`.
std::vector<PeakRow> selectByDistance(const std::vector<PeakRow>& peaks, std::uint64_t distance) {
  std::vector<std::size_t> order(peaks.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return peaks[a].height != peaks[b].height ? peaks[a].height > peaks[b].height : a > b;
  });
  std::vector<char> keep(peaks.size(), 1);
  for (const std::size_t j : order) {
    if (!keep[j]) continue;
    const std::uint64_t at = peaks[j].index;
    for (std::size_t k = j; k-- > 0 && (at - peaks[k].index) < distance;) keep[k] = 0;
    for (std::size_t k = j + 1; k < peaks.size() && (peaks[k].index - at) < distance; ++k) keep[k] = 0;
  }
  std::vector<PeakRow> kept;
  for (std::size_t k = 0; k < peaks.size(); ++k) {
    if (keep[k]) kept.push_back(peaks[k]);
  }
  return kept;
}

}  // namespace

GpuFilterResult findPeaksCuda(std::span<const double> x, const PeakOptions& options, std::vector<PeakRow>& peaks,
                              int device) {
  if (!gpuFindsPeaks(options)) {
    throw std::invalid_argument(
        "find-peaks on the GPU takes height, threshold and distance; prominence and width run on the CPU");
  }
  peaks.clear();
  const PeakTest test{options.height.has_value(), options.threshold.has_value(), options.height.value_or(0.0),
                      options.threshold.value_or(0.0)};
  const auto n = static_cast<std::int64_t>(x.size());
  return cuda::filterResultOf([&] {
    const cuda::StageEngineLease engine = cuda::leaseStageEngine(device);
    return engine->run("out of GPU memory: find-peaks' signal and candidates", [&](const cuda::OnDevice& on) {
      GpuFilterResult result;
      if (n < 3) return result;
      const std::int64_t tiles = (n + kTile - 1) / kTile;
      auto* d_counts = engine->scratch<unsigned>(0, static_cast<std::size_t>(tiles), on.stream);
      auto* d_offsets = engine->scratch<std::uint64_t>(1, static_cast<std::size_t>(tiles) + 1, on.stream);
      const cuda::StagedSignal<double> signal(x, std::span<double>(), on);
      cuda::Event start, copiedIn, counted, computed, copiedOut;
      start.record(on.stream);
      signal.copyIn();
      copiedIn.record(on.stream);
      const cudaStream_t stream = on.stream.get();
      tilePeaks<<<static_cast<unsigned>(tiles), kTileThreads, 0, stream>>>(signal.d_in(), n, test, d_counts);
      SIGLAB_CUDA_CHECK_LAUNCH();
      scanCounts<<<1, kTileThreads, 0, stream>>>(d_counts, tiles, d_offsets);
      SIGLAB_CUDA_CHECK_LAUNCH();
      std::uint64_t total = 0;
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(&total, d_offsets + tiles, sizeof total, cudaMemcpyDefault, stream));
      counted.record(on.stream);
      counted.synchronize();
      // Peaks are at least two samples apart: at most n / 2 of them.
      auto* d_index = engine->scratch<std::uint64_t>(2, total + 1, on.stream);
      auto* d_height = engine->scratch<double>(3, total + 1, on.stream);
      writePeaks<<<static_cast<unsigned>(tiles), kTileThreads, 0, stream>>>(signal.d_in(), n, test, d_offsets, d_index,
                                                                           d_height);
      SIGLAB_CUDA_CHECK_LAUNCH();
      computed.record(on.stream);
      std::vector<std::uint64_t> index(total);
      std::vector<double> height(total);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(index.data(), d_index, total * sizeof(std::uint64_t), cudaMemcpyDefault, stream));
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(height.data(), d_height, total * sizeof(double), cudaMemcpyDefault, stream));
      copiedOut.record(on.stream);
      copiedOut.synchronize();
      peaks.resize(total);
      for (std::size_t k = 0; k < total; ++k) {
        peaks[k].index = index[k];
        peaks[k].height = height[k];
      }
      if (options.distance) peaks = selectByDistance(peaks, static_cast<std::uint64_t>(std::ceil(*options.distance)));
      result.kernelMs = computed.millisSince(copiedIn);
      result.totalMs = copiedOut.millisSince(start);
      return result;
    });
  });
}

}  // namespace siglab
