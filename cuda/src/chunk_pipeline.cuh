#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_scope.hpp"
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

// With SIGLAB_PIPELINE_TIMELINE set, every pass prints its chunks' timeline to stderr: where each
// chunk starts, its samples, when the host issued it (host clock), and when its copy in, its kernel
// and its copy out were done (events, each from the pass's first event). A diagnosis of where a
// pass's time goes (nsys is not on the GPU machine's image); it adds three event reads a chunk.
inline bool pipelineTimelineWanted() {
  static const bool wanted = std::getenv("SIGLAB_PIPELINE_TIMELINE") != nullptr;
  return wanted;
}

// The base's per-chunk hook (gpu_engine.hpp): any engine's ChunkKernel (haloed_span.hpp) runs
// here on every chunk with the copies overlapped.
//
// Host-to-host filtering in chunks: chunk c goes to slot c % slots, each slot with its own stream,
// device buffers and pinned staging buffers, all allocated once and reused across passes. While
// one chunk is copied in, another is filtered and a third copied out; the device never holds more
// than the slots, so a signal larger than the GPU's memory goes through the same way. Each chunk
// carries its halo (the neighbouring samples, or the boundary rule's values at the signal's ends),
// so the result has the same bits as one pass over the whole signal.
// Pinned and device memory (any device's) are copied directly. Pageable memory is staged through
// the slot's pinned buffers by host threads: the calling thread stages each chunk's input while
// earlier chunks are on the device, and a second thread waits for finished chunks and moves their
// results out, so the two stagings overlap each other and the transfers. A result that needs no
// staging is finished on the calling thread, just before its slot is reused: no thread is started
// and no hand-over between threads delays the next chunk.
// A reduction (Welch's sums) keeps its results on the device: made with ResultsBack::No, it runs
// passes with an empty `out`, its kernels given no output buffer, and nothing is copied back; the
// input's staging takes the threads the results' would have. Ramps::No keeps every chunk but the
// last whole (Welch: a ramp only adds chunks, each costing a full cuFFT batch; the causal scan:
// its carry passes from chunk to chunk only across whole groups).
// CopyOrder::Chunks makes every chunk's copies wait for the chunk before's: the chunks arrive one
// after another at the copy engines' full rate, instead of every slot's copy sharing them and each
// chunk arriving late. The causal scan needs it (its chunks' carries are chained in order); Welch
// gained a little. AnyFromPinned orders only chunks staged from pageable memory: from pinned memory
// gpu-median took 2.0x one pinned copy in chunk order against 1.44x in any order, gpu-tuned 1.41x
// against 1.38x; from pageable memory every engine measured was faster in chunk order (gpu-tuned
// 2.67x against 4.95x). docs/perf/gpu-h100-scan-session20.txt.
enum class ResultsBack : bool { No, Yes };
enum class Ramps : bool { No, Yes };
enum class CopyOrder : bool { AnyFromPinned, Chunks };

template <class T>
class ChunkPipeline {
 public:
  ChunkPipeline(std::size_t chunkSamples, int radius, int slots, ResultsBack back = ResultsBack::Yes,
                Ramps ramps = Ramps::Yes, CopyOrder order = CopyOrder::Chunks)
      : chunk_(chunkSamples), radius_(radius), ramps_(ramps == Ramps::Yes),
        copiesInOrder_(order == CopyOrder::Chunks), device_(currentDevice()) {
    for (int s = 0; s < slots; ++s) slots_.emplace_back(back == ResultsBack::Yes ? chunkSamples : 0, chunkSamples, radius);
  }
  std::size_t chunkSamples() const { return chunk_; }
  int radius() const { return radius_; }
  std::size_t slots() const { return slots_.size(); }
  static std::size_t deviceBytes(std::size_t chunkSamples, int radius, int slots) {
    return static_cast<std::size_t>(slots) * (2 * chunkSamples + 2 * static_cast<std::size_t>(radius)) * sizeof(T);
  }

  // The chunk for `samples` outputs on `slots` streams within `budgetBytes` of device memory:
  // `requested` when given, else about an eighth of the signal (whole 4096s, 64 Ki to 1 Mi samples:
  // 1 Mi chunks on 8 streams were the fastest end to end at 10M on the H100, 1.95 ms against 2.01 ms
  // for 512 Ki; docs/perf/gpu-h100-benchmark.txt); never more than the signal or the budget allows.
  static std::size_t chunkFor(std::size_t samples, int radius, int slots, std::size_t requested,
                              std::size_t budgetBytes, std::size_t perSignalPart = 8) {
    std::size_t chunk = requested;
    if (chunk == 0) chunk = std::clamp<std::size_t>(samples / perSignalPart / 4096 * 4096, 65536, 1 << 20);
    const std::size_t fitting = budgetBytes / sizeof(T) / static_cast<std::size_t>(slots);
    if (fitting <= 2 * static_cast<std::size_t>(radius) + 2) {
      throw std::runtime_error("the GPU memory budget of " + std::to_string(budgetBytes) + " bytes cannot hold " +
                               std::to_string(slots) + " chunks with their halos");
    }
    return std::max<std::size_t>(1, std::min({chunk, (fitting - 2 * static_cast<std::size_t>(radius)) / 2, samples}));
  }

  // Where the chunks of outputs [first, last) start, then `last`: whole chunks, except that where
  // the part holds at least 8 chunks of a multiple of 32 Ki samples, the first three and the last
  // three ramp (an eighth, a quarter, a half of a chunk): the first result starts back, and the last
  // one is back, sooner, so the copies in and out overlap for more of the pass.
  std::vector<std::size_t> chunkBounds(std::size_t first, std::size_t last) const {
    return chunkBounds(chunk_, first, last, ramps_);
  }
  static std::vector<std::size_t> chunkBounds(std::size_t chunk, std::size_t first, std::size_t last, bool ramps = true) {
    std::vector<std::size_t> bounds{first};
    const std::size_t total = last > first ? last - first : 0;
    std::vector<std::size_t> ramp;
    if (ramps && chunk % (std::size_t{8} * 4096) == 0 && total >= 8 * chunk) ramp = {chunk / 8, chunk / 4, chunk / 2};
    for (std::size_t size : ramp) bounds.push_back(bounds.back() + size);
    std::size_t rampedTail = 0;
    for (std::size_t size : ramp) rampedTail += size;
    while (bounds.back() + rampedTail < last) bounds.push_back(std::min(last - rampedTail, bounds.back() + chunk));
    for (auto size = ramp.rbegin(); size != ramp.rend(); ++size) bounds.push_back(bounds.back() + *size);
    if (total == 0) bounds.push_back(first);
    return bounds;
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
    const MemoryKind inKind = memoryKindOf(in.data());
    const bool ordered = copiesInOrder_ || inKind == MemoryKind::Pageable;
    const bool stagedOut = !out.empty() && memoryKindOf(out.data()) == MemoryKind::Pageable;
    PipelinePass pass;
    const std::size_t n = std::min(last, in.size());
    const std::vector<std::size_t> bounds = chunkBounds(first, n);
    const std::size_t chunks = first < n ? bounds.size() - 1 : 0;
    Finisher finisher(*this, out, stagedOut, chunks, progress, pass);
    timeline_.clear();
    if (pipelineTimelineWanted() && chunks > 0) passStarted_.record(slots_.front().stream.view());
    bool cancelled = false;
    for (std::size_t c = 0; c < chunks; ++c) {
      if (progress.cancelled()) {
        cancelled = true;
        break;
      }
      if (!finisher.waitUntilFinished(c + 1 > slots_.size() ? c + 1 - slots_.size() : 0)) break;  // it failed
      if (progress.cancelled()) {  // seen while waiting for the slot
        cancelled = true;
        break;
      }
      Slot& slot = slots_[c % slots_.size()];
      slot.begin = bounds[c];
      slot.end = bounds[c + 1];
      slot.issuedMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      issue(slot, ordered && c > 0 ? &slots_[(c - 1) % slots_.size()] : nullptr, in, inKind, stagedOut, out, kernel,
            mode);
      finisher.issued(c + 1);
    }
    finisher.finishIssued();  // waits for every chunk in flight, then rethrows the finisher's error
    if (cancelled) throw Cancelled();
    pass.totalMs = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (pipelineTimelineWanted()) printTimeline(pass);
    return pass;
  }

 private:
  struct Slot {
    Slot(std::size_t outputs, std::size_t chunk, int radius)
        : d_in(chunk, stream.view()), d_out(outputs, stream.view()),
          d_halo(2 * static_cast<std::size_t>(radius), stream.view()),
          h_halo(2 * static_cast<std::size_t>(radius), stream.view()), capacity(chunk) {}
    Stream stream;  // first: the buffers below are made for it
    DeviceBuffer<T> d_in, d_out, d_halo;
    PinnedBuffer<T> h_halo;
    PinnedBuffer<T> h_in, h_out;  // made at the first pageable pass: pinned callers need none
    Event started, copiedIn, filtered, copiedOut;
    std::size_t capacity;  // samples a chunk may have
    std::size_t begin = 0, end = 0;
    double issuedMs = 0;  // host clock, from the pass's start
  };

  // One line of SIGLAB_PIPELINE_TIMELINE's output.
  struct ChunkTimes {
    std::size_t begin, count;
    double issuedMs, inMs, kernelMs, outMs;
  };
  void printTimeline(const PipelinePass& pass) const {
    std::fprintf(stderr, "pipeline pass: %zu chunks, %zu slots, %.4f ms host; per chunk: begin count | host issue ms | "
                 "in, kernel, out done ms\n", timeline_.size(), slots_.size(), pass.totalMs);
    for (const ChunkTimes& t : timeline_) {
      std::fprintf(stderr, "  %10zu %9zu | %8.4f | %8.4f %8.4f %8.4f\n", t.begin, t.count, t.issuedMs, t.inMs,
                   t.kernelMs, t.outMs);
    }
  }

  // Queues the slot's chunk: its input (staged first when pageable) and halo in, the kernel, the
  // result out (to the slot's pinned buffer when `out` is pageable). Its copies wait for those of
  // `previous`, the chunk before, when given (CopyOrder).
  template <class Kernel>
  void issue(Slot& slot, const Slot* previous, std::span<const T> in, MemoryKind inKind, bool stagedOut,
             std::span<T> out, const Kernel& kernel, BoundaryMode mode) {
    const std::size_t count = slot.end - slot.begin;
    const StreamView view = slot.stream.view();
    const cudaStream_t stream = view.get();
    fillHaloAnywhere(in, inKind == MemoryKind::Device, static_cast<std::int64_t>(slot.begin),
                     static_cast<std::int64_t>(slot.end), radius_, mode, slot.h_halo.data(), view);
    const T* source = in.data() + slot.begin;
    if (inKind == MemoryKind::Pageable) {
      if (slot.h_in.size() == 0) slot.h_in = PinnedBuffer<T>(slot.capacity, view);
      // 8 threads whether or not results come back at once: into page-locked memory 16 ran at a
      // fifth of 8's speed on the H200 host (pageable_staging.hpp).
      parallelCopy(slot.h_in.data(), source, count * sizeof(T), 8);
      source = slot.h_in.data();
    }
    if (previous) SIGLAB_CUDA_TRY(cudaStreamWaitEvent(stream, previous->copiedIn.get()));
    slot.started.record(view);
    SIGLAB_CUDA_TRY(cudaMemcpyAsync(slot.d_in.data(), source, count * sizeof(T), cudaMemcpyDefault, stream));
    if (radius_ > 0) {
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(slot.d_halo.data(), slot.h_halo.data(), slot.d_halo.bytes(),
                                      cudaMemcpyHostToDevice, stream));
    }
    slot.copiedIn.record(view);
    kernel(HaloedSpan<T>{slot.d_in.data(), slot.d_halo.data(), static_cast<std::int64_t>(count),
                         static_cast<std::int64_t>(slot.begin)},
           slot.d_out.size() ? slot.d_out.data() : nullptr, view);
    slot.filtered.record(view);
    if (stagedOut && slot.h_out.size() == 0) slot.h_out = PinnedBuffer<T>(slot.capacity, view);
    if (!out.empty()) {
      T* destination = stagedOut ? slot.h_out.data() : out.data() + slot.begin;
      if (previous) SIGLAB_CUDA_TRY(cudaStreamWaitEvent(stream, previous->copiedOut.get()));
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(destination, slot.d_out.data(), count * sizeof(T), cudaMemcpyDefault, stream));
    }
    slot.copiedOut.record(view);
  }

  // Takes the chunks in order as they come back, moves a staged result to `out`, adds up the
  // chunk's times and reports it. With a staged result it is a second host thread, which the issuing
  // thread waits on only before reusing a slot; otherwise the issuing thread itself finishes each
  // chunk when it waits for its slot.
  class Finisher {
   public:
    Finisher(ChunkPipeline& pipeline, std::span<T> out, bool stagedOut, std::size_t chunks, const Progress& progress,
             PipelinePass& pass)
        : pipeline_(pipeline), out_(out), stagedOut_(stagedOut), chunks_(chunks), progress_(progress), pass_(pass) {
      if (chunks > 0 && stagedOut) thread_ = std::thread([this] { work(); });
    }
    Finisher(const Finisher&) = delete;
    Finisher& operator=(const Finisher&) = delete;
    ~Finisher() { stopAndJoin(); }  // after an error in the issuing thread: the chunks in flight still drain

    void issued(std::size_t count) {
      {
        const std::lock_guard lock(mutex_);
        issued_ = count;
      }
      changed_.notify_all();
    }
    // Waits until `count` chunks are finished; false when finishing one failed.
    bool waitUntilFinished(std::size_t count) {
      if (!stagedOut_) {
        while (finished_ < count) finishNext();
        return !error_;
      }
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return finished_ >= count || error_; });
      return !error_;
    }
    // Finishes every issued chunk, ends the thread, and rethrows its error if it had one.
    void finishIssued() {
      stopAndJoin();
      if (error_) std::rethrow_exception(error_);
    }

   private:
    void stopAndJoin() {
      {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
      }
      changed_.notify_all();
      if (thread_.joinable()) thread_.join();
      if (!stagedOut_) {
        while (finished_ < issued_) finishNext();
      }
    }
    void work() {
      const DeviceScope scope(pipeline_.device_, std::nothrow);
      for (;;) {
        {
          std::unique_lock lock(mutex_);
          changed_.wait(lock, [&] { return issued_ > finished_ || stopping_; });
          if (issued_ <= finished_) return;
        }
        finishNext();
      }
    }
    // Finishes the oldest chunk in flight (never throws: an error is kept for the issuing thread).
    void finishNext() noexcept {
      Slot& slot = pipeline_.slots_[finished_ % pipeline_.slots_.size()];
      try {
        // After an error or a cancel the chunks in flight are only drained (their buffers stay valid
        // until then): no result is wanted, and no progress past the cancel is reported.
        if (!error_ && !progress_.cancelled()) finish(slot);
        else cudaEventSynchronize(slot.copiedOut.get());
      } catch (...) {
        const std::lock_guard lock(mutex_);
        error_ = std::current_exception();
      }
      {
        const std::lock_guard lock(mutex_);
        ++finished_;
      }
      changed_.notify_all();
    }
    void finish(Slot& slot) {
      SIGLAB_CUDA_TRY(cudaEventSynchronize(slot.copiedOut.get()));
      if (stagedOut_) parallelCopy(out_.data() + slot.begin, slot.h_out.data(), (slot.end - slot.begin) * sizeof(T));
      pass_.kernelMs += slot.filtered.millisSince(slot.copiedIn);
      pass_.transferMs += slot.copiedIn.millisSince(slot.started) + slot.copiedOut.millisSince(slot.filtered);
      if (pipelineTimelineWanted()) {
        const Event& zero = pipeline_.passStarted_;
        pipeline_.timeline_.push_back({slot.begin, slot.end - slot.begin, slot.issuedMs, slot.copiedIn.millisSince(zero),
                                       slot.filtered.millisSince(zero), slot.copiedOut.millisSince(zero)});
      }
      progress_.report(static_cast<double>(++reported_) / static_cast<double>(chunks_));
    }

    ChunkPipeline& pipeline_;
    std::span<T> out_;
    bool stagedOut_;
    std::size_t chunks_, reported_ = 0;
    const Progress& progress_;
    PipelinePass& pass_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::size_t issued_ = 0, finished_ = 0;
    bool stopping_ = false;
    std::exception_ptr error_;
    std::thread thread_;  // last: started once everything above exists
  };

  std::size_t chunk_;
  int radius_;
  bool ramps_, copiesInOrder_;
  int device_;  // the slots' device: the finisher's thread makes it current
  std::vector<Slot> slots_;
  Event passStarted_;               // SIGLAB_PIPELINE_TIMELINE's zero
  std::vector<ChunkTimes> timeline_;  // its chunks, in order (the finisher adds them one at a time)
};

}  // namespace siglab::cuda
