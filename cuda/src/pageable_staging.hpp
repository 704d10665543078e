#pragma once
// Copies between pageable host memory and a device at the link's speed, for the engines that copy
// a whole signal at once (ChunkPipeline stages its own chunks): host threads stage one piece into a
// pinned buffer while the copy engine moves the piece before it. The driver's own staging of
// pageable memory ran at 6.5 GB/s on the H100 host, against 55 GB/s from pinned memory.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <mutex>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "event_timer.hpp"
#include "host_copy.hpp"
#include "stream.hpp"

namespace siglab::cuda {

// Pinned pieces for staging, made on first use and kept for the process (pinned allocations take
// milliseconds; page-locked memory serves every device).
class StagingPieces {
 public:
  static constexpr std::size_t kBytes = std::size_t{8} << 20;
  static void* take() {
    StagingPieces& pool = instance();
    {
      const std::lock_guard lock(pool.mutex_);
      if (!pool.free_.empty()) {
        void* piece = pool.free_.back();
        pool.free_.pop_back();
        return piece;
      }
    }
    void* piece = nullptr;
    PinnedMemory::allocate(&piece, kBytes);
    return piece;
  }
  static void giveBack(void* piece) noexcept {
    StagingPieces& pool = instance();
    const std::lock_guard lock(pool.mutex_);
    pool.free_.push_back(piece);  // reserved below: never allocates
  }

 private:
  StagingPieces() { free_.reserve(256); }
  static StagingPieces& instance() {
    static auto* const pool = new StagingPieces;  // never destroyed: CUDA may be gone at exit
    return *pool;
  }
  std::mutex mutex_;
  std::vector<void*> free_;
};

// Two staging pieces and their events on `stream`, for one run's copies. A run stages its input,
// then its result, never both at once: each direction's host copies take every thread (a chunk
// pipeline, which stages both ways at once, gives each half).
class PageableStaging {
 public:
  explicit PageableStaging(StreamView stream) : stream_(stream) {}
  PageableStaging(const PageableStaging&) = delete;
  PageableStaging& operator=(const PageableStaging&) = delete;
  ~PageableStaging() {
    for (int b = 0; b < 2; ++b) {
      if (!piece_[b]) continue;
      cudaEventSynchronize(done_[b].get());  // a queued copy may still read it
      StagingPieces::giveBack(piece_[b]);
    }
  }

  // Queues `bytes` from pageable `from` to device memory `to` on the stream; returns once the last
  // piece is staged (the copies may still be running). After each piece's copy is queued,
  // afterPiece(bytes queued so far) may queue work on the stream that reads them.
  template <class AfterPiece>
  void toDevice(void* to, const void* from, std::size_t bytes, const AfterPiece& afterPiece) {
    for (std::size_t offset = 0, k = 0; offset < bytes; offset += StagingPieces::kBytes, ++k) {
      const std::size_t count = std::min(StagingPieces::kBytes, bytes - offset);
      void* piece = freePiece(k % 2);
      parallelCopy(piece, static_cast<const unsigned char*>(from) + offset, count, kAllThreads);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(static_cast<unsigned char*>(to) + offset, piece, count, cudaMemcpyHostToDevice,
                                      stream_.get()));
      done_[k % 2].record(stream_);
      afterPiece(offset + count);
    }
  }
  void toDevice(void* to, const void* from, std::size_t bytes) {
    toDevice(to, from, bytes, [](std::size_t) {});
  }

  // Copies `bytes` from device memory `from` to pageable `to` after the work queued on the stream;
  // returns when they are all there. The next piece comes back while this one is unstaged.
  void toHost(void* to, const void* from, std::size_t bytes) {
    const auto queue = [&](std::size_t k) {
      const std::size_t offset = k * StagingPieces::kBytes;
      if (offset >= bytes) return;
      void* piece = freePiece(k % 2);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(piece, static_cast<const unsigned char*>(from) + offset,
                                      std::min(StagingPieces::kBytes, bytes - offset), cudaMemcpyDeviceToHost,
                                      stream_.get()));
      done_[k % 2].record(stream_);
    };
    queue(0);
    for (std::size_t offset = 0, k = 0; offset < bytes; offset += StagingPieces::kBytes, ++k) {
      queue(k + 1);
      done_[k % 2].synchronize();
      parallelCopy(static_cast<unsigned char*>(to) + offset, piece_[k % 2],
                   std::min(StagingPieces::kBytes, bytes - offset), kAllThreads);
    }
  }

 private:
  static constexpr int kAllThreads = 16;  // parallelCopy takes at most the machine's

  // Staging piece b once the copy that last used it is done.
  void* freePiece(std::size_t b) {
    if (!piece_[b]) piece_[b] = StagingPieces::take();
    else done_[b].synchronize();
    return piece_[b];
  }

  StreamView stream_;
  void* piece_[2] = {nullptr, nullptr};
  Event done_[2];
};

}  // namespace siglab::cuda
