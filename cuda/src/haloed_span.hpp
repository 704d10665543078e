#pragma once
// The unit of the GPU engine base's per-chunk hook (gpu_engine.hpp): a stretch of signal on the
// device with the boundary rule's halo around it, and the chunk kernels that filter one.
#include <algorithm>
#include <concepts>
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/boundary.hpp"
#include "cuda_check.hpp"
#include "stream.hpp"

namespace siglab::cuda {

// A stretch of signal with its surroundings: `d_body` holds positions 0..n-1, `d_halo` the r
// positions before them followed by the r after them, already resolved by the boundary rule
// (0.0 where the zero mode skips a sample: its product is +-0 and leaves the sum's bits unchanged).
// A whole signal and one chunk of it look the same to the kernel.
template <class T>
struct HaloedSpan {
  const T* d_body = nullptr;  // 16-byte aligned
  const T* d_halo = nullptr;  // 2r values: positions -r..-1, then n..n+r-1
  std::int64_t n = 0;
  std::int64_t begin = 0;  // where d_body[0] lies in the whole signal (0 for a whole signal)
};

// A chunk kernel: kernel(in, d_out, stream) queues on `stream` the in.n outputs of `in` (its body and
// halo) into d_out. An engine whose resident part has this shape runs per chunk in ChunkPipeline
// (chunk_pipeline.cuh), copies overlapped, or once on a whole resident signal: the same bits.
template <class Kernel, class T>
concept ChunkKernel = std::invocable<const Kernel&, const HaloedSpan<T>&, T*, StreamView>;

// Writes the 2r halo values of positions [begin, end) of a signal of n samples into `halo` (see
// HaloedSpan), reading sample k through valueAt(k).
template <class T, class ValueAt>
void fillHaloWith(std::int64_t n, std::int64_t begin, std::int64_t end, int radius, BoundaryMode mode, T* halo,
                  const ValueAt& valueAt) {
  auto value = [&](std::int64_t p) {
    const std::int64_t k = boundaryIndex(p, n, mode);
    return k == kSkipSample ? T(0) : valueAt(k);
  };
  for (int t = 0; t < radius; ++t) {
    halo[t] = value(begin - radius + t);
    halo[radius + t] = value(end + t);
  }
}

// The same from a signal in host memory.
template <class T>
void fillHalo(std::span<const T> signal, std::int64_t begin, std::int64_t end, int radius, BoundaryMode mode,
              T* halo) {
  fillHaloWith(static_cast<std::int64_t>(signal.size()), begin, end, radius, mode, halo,
               [&](std::int64_t k) { return signal[static_cast<std::size_t>(k)]; });
}

// The same from a signal in device memory (the host cannot read it): the samples the rule reads are
// copied back on `stream`, one copy per contiguous run of them, and waited for.
template <class T>
void fillHaloFromDevice(std::span<const T> signal, std::int64_t begin, std::int64_t end, int radius,
                        BoundaryMode mode, T* halo, StreamView stream) {
  const auto n = static_cast<std::int64_t>(signal.size());
  std::vector<std::int64_t> wanted;  // the indices the halo reads, sorted, each once
  std::vector<std::int64_t> unusedHalo(2 * static_cast<std::size_t>(radius));
  fillHaloWith(n, begin, end, radius, mode, unusedHalo.data(), [&](std::int64_t k) {
    wanted.push_back(k);
    return k;
  });
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<T> values(wanted.size());
  for (std::size_t run = 0; run < wanted.size();) {
    std::size_t last = run;
    while (last + 1 < wanted.size() && wanted[last + 1] == wanted[last] + 1) ++last;
    SIGLAB_CUDA_TRY(cudaMemcpyAsync(values.data() + run, signal.data() + wanted[run], (last - run + 1) * sizeof(T),
                                    cudaMemcpyDefault, stream.get()));
    run = last + 1;
  }
  stream.synchronize();
  fillHaloWith(n, begin, end, radius, mode, halo, [&](std::int64_t k) {
    return values[static_cast<std::size_t>(std::lower_bound(wanted.begin(), wanted.end(), k) - wanted.begin())];
  });
}

// fillHalo or fillHaloFromDevice, as `signal` lives in device memory or not.
template <class T>
void fillHaloAnywhere(std::span<const T> signal, bool inDeviceMemory, std::int64_t begin, std::int64_t end, int radius,
                      BoundaryMode mode, T* halo, StreamView stream) {
  if (inDeviceMemory) return fillHaloFromDevice(signal, begin, end, radius, mode, halo, stream);
  fillHalo(signal, begin, end, radius, mode, halo);
}

}  // namespace siglab::cuda
