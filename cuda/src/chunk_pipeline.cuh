#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "event_timer.hpp"
#include "haloed_span.hpp"
#include "host_copy.hpp"
#include "pinned_host.cuh"
#include "siglab/progress.hpp"

namespace siglab::cuda {

// What one host-to-host pass measured.
struct PipelinePass {
  double totalMs = 0;     // host clock, from the call to the last byte back in host memory
  double kernelMs = 0;    // sum of the chunks' kernel times (events)
  double transferMs = 0;  // sum of the chunks' copy times (events); they overlap the kernels
};

// The base's per-chunk hook (gpu_engine.hpp): any engine's ChunkKernel (haloed_span.hpp) runs
// here on every chunk with the copies overlapped.
//
// Host-to-host filtering in chunks: chunk c goes to slot c % slots, each slot with its own stream,
// device buffers and pinned staging buffers, all allocated once and reused across passes. While
// one chunk is copied in, another is filtered and a third copied out; the device never holds more
// than the slots, so a signal larger than the GPU's memory goes through the same way. Each chunk
// carries its halo (the neighbouring samples, or the boundary rule's values at the signal's ends),
// so the result has the same bits as one pass over the whole signal.
// Pinned caller memory is copied directly; pageable memory is staged through the slot's buffers.
template <class T>
class ChunkPipeline {
 public:
  ChunkPipeline(std::size_t chunkSamples, int radius, int slots) : chunk_(chunkSamples), radius_(radius) {
    for (int s = 0; s < slots; ++s) slots_.emplace_back(chunkSamples, radius);
  }
  std::size_t chunkSamples() const { return chunk_; }
  int radius() const { return radius_; }
  std::size_t slots() const { return slots_.size(); }
  static std::size_t deviceBytes(std::size_t chunkSamples, int radius, int slots) {
    return static_cast<std::size_t>(slots) * (2 * chunkSamples + 2 * static_cast<std::size_t>(radius)) * sizeof(T);
  }

  // `kernel` is the engine's chunk kernel; its buffers and stream are the slots'.
  // Checks `progress` between chunks: a cancelled pass waits for the chunks in flight, then throws
  // Cancelled, leaving the pipeline ready for the next pass. Reports each chunk back in host memory.
  // Only outputs [first, last) are computed (one device's part of a split signal); the halos
  // still come from the whole of `in`.
  template <ChunkKernel<T> Kernel>
  PipelinePass run(std::span<const T> in, std::span<T> out, const Kernel& kernel, BoundaryMode mode,
                   const Progress& progress = {}, std::size_t first = 0, std::size_t last = SIZE_MAX) {
    const auto start = std::chrono::steady_clock::now();
    const bool pinnedIn = isPinnedHost(in.data());
    const bool pinnedOut = isPinnedHost(out.data());
    PipelinePass pass;
    const std::size_t n = std::min(last, in.size());
    const std::size_t chunks = first < n ? (n - first + chunk_ - 1) / chunk_ : 0;
    std::size_t finished = 0;
    const auto finishAndReport = [&](Slot& slot) {
      if (finish(slot, out, pinnedOut, pass)) progress.report(static_cast<double>(++finished) / static_cast<double>(chunks));
    };
    for (std::size_t c = 0; c < chunks; ++c) {
      if (progress.cancelled()) {
        for (Slot& busy : slots_) drain(busy);
        throw Cancelled();
      }
      Slot& slot = slots_[c % slots_.size()];
      finishAndReport(slot);
      slot.begin = first + c * chunk_;
      slot.end = std::min(n, slot.begin + chunk_);
      const std::size_t count = slot.end - slot.begin;
      const StreamView view = slot.stream.view();
      const cudaStream_t stream = view.get();
      fillHalo(in, static_cast<std::int64_t>(slot.begin), static_cast<std::int64_t>(slot.end), radius_, mode,
               slot.h_halo.data());
      const T* source = in.data() + slot.begin;
      if (!pinnedIn) {
        parallelCopy(slot.h_in.data(), source, count * sizeof(T));
        source = slot.h_in.data();
      }
      slot.started.record(view);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(slot.d_in.data(), source, count * sizeof(T), cudaMemcpyHostToDevice, stream));
      if (radius_ > 0) {
        SIGLAB_CUDA_TRY(cudaMemcpyAsync(slot.d_halo.data(), slot.h_halo.data(), slot.d_halo.bytes(),
                                        cudaMemcpyHostToDevice, stream));
      }
      slot.copiedIn.record(view);
      kernel(HaloedSpan<T>{slot.d_in.data(), slot.d_halo.data(), static_cast<std::int64_t>(count)}, slot.d_out.data(), view);
      slot.filtered.record(view);
      T* destination = pinnedOut ? out.data() + slot.begin : slot.h_out.data();
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(destination, slot.d_out.data(), count * sizeof(T), cudaMemcpyDeviceToHost, stream));
      slot.copiedOut.record(view);
      slot.busy = true;
    }
    for (Slot& slot : slots_) finishAndReport(slot);
    pass.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return pass;
  }

 private:
  struct Slot {
    Slot(std::size_t chunk, int radius)
        : d_in(chunk, stream.view()), d_out(chunk, stream.view()),
          d_halo(2 * static_cast<std::size_t>(radius), stream.view()), h_in(chunk, stream.view()),
          h_out(chunk, stream.view()), h_halo(2 * static_cast<std::size_t>(radius), stream.view()) {}
    Stream stream;  // first: the buffers below are made for it
    DeviceBuffer<T> d_in, d_out, d_halo;
    PinnedBuffer<T> h_in, h_out, h_halo;
    Event started, copiedIn, filtered, copiedOut;
    std::size_t begin = 0, end = 0;
    bool busy = false;
  };

  // Waits for the slot's chunk and drops it.
  static void drain(Slot& slot) {
    if (!slot.busy) return;
    SIGLAB_CUDA_TRY(cudaEventSynchronize(slot.copiedOut.get()));
    slot.busy = false;
  }

  // Waits for the slot's chunk, moves its result to `out` when staged, and adds up its times.
  // False when the slot held no chunk.
  static bool finish(Slot& slot, std::span<T> out, bool pinnedOut, PipelinePass& pass) {
    if (!slot.busy) return false;
    SIGLAB_CUDA_TRY(cudaEventSynchronize(slot.copiedOut.get()));
    slot.busy = false;
    if (!pinnedOut) parallelCopy(out.data() + slot.begin, slot.h_out.data(), (slot.end - slot.begin) * sizeof(T));
    pass.kernelMs += slot.filtered.millisSince(slot.copiedIn);
    pass.transferMs += slot.copiedIn.millisSince(slot.started) + slot.copiedOut.millisSince(slot.filtered);
    return true;
  }

  std::size_t chunk_;
  int radius_;
  std::vector<Slot> slots_;
};

}  // namespace siglab::cuda
