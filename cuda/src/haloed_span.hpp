#pragma once
// The unit of the GPU engine base's per-chunk hook (gpu_engine.hpp): a stretch of signal on the
// device with the boundary rule's halo around it, and the chunk kernels that filter one.
#include <concepts>
#include <cstdint>
#include <span>

#include "siglab/boundary.hpp"
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
};

// A chunk kernel: kernel(in, d_out, stream) queues on `stream` the in.n outputs of `in` (its body and
// halo) into d_out. An engine whose resident part has this shape runs per chunk in ChunkPipeline
// (chunk_pipeline.cuh), copies overlapped, or once on a whole resident signal: the same bits.
template <class Kernel, class T>
concept ChunkKernel = std::invocable<const Kernel&, const HaloedSpan<T>&, T*, StreamView>;

// Writes the 2r halo values of positions [begin, end) of `signal` into `halo` (see HaloedSpan).
template <class T>
void fillHalo(std::span<const T> signal, std::int64_t begin, std::int64_t end, int radius, BoundaryMode mode,
              T* halo) {
  const auto n = static_cast<std::int64_t>(signal.size());
  auto valueAt = [&](std::int64_t p) {
    const std::int64_t k = boundaryIndex(p, n, mode);
    return k == kSkipSample ? T(0) : signal[static_cast<std::size_t>(k)];
  };
  for (int t = 0; t < radius; ++t) {
    halo[t] = valueAt(begin - radius + t);
    halo[radius + t] = valueAt(end + t);
  }
}

}  // namespace siglab::cuda
