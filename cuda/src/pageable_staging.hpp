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

// Staging pieces in turn and their events on `stream`, for one run's copies. A run stages its
// input, then its result, never both at once. On the H200 host (16 cores), 80 MB from pageable
// memory reached the device in 1.75 ms with three 8 MiB pieces copied by 8 threads, against 2.41 ms
// with two pieces and 16 threads (a piece then waited for its copy engine, and 16 threads copying
// into page-locked memory ran at a fifth of 8 threads' speed there); the copy engine alone takes
// 1.47 ms.
class PageableStaging {
 public:
  explicit PageableStaging(StreamView stream) : stream_(stream) {}
  PageableStaging(const PageableStaging&) = delete;
  PageableStaging& operator=(const PageableStaging&) = delete;
  ~PageableStaging() {
    for (std::size_t b = 0; b < kPieces; ++b) {
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
      void* piece = freePiece(k % kPieces);
      parallelCopy(piece, static_cast<const unsigned char*>(from) + offset, count, kCopyThreads);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(static_cast<unsigned char*>(to) + offset, piece, count, cudaMemcpyHostToDevice,
                                      stream_.get()));
      done_[k % kPieces].record(stream_);
      afterPiece(offset + count);
    }
  }
  void toDevice(void* to, const void* from, std::size_t bytes) {
    toDevice(to, from, bytes, [](std::size_t) {});
  }

  // Copies `bytes` from device memory `from` to pageable `to` after the work queued on the stream;
  // returns when they are all there. The next pieces come back while this one is unstaged.
  void toHost(void* to, const void* from, std::size_t bytes) {
    const auto queue = [&](std::size_t k) {
      const std::size_t offset = k * StagingPieces::kBytes;
      if (offset >= bytes) return;
      void* piece = freePiece(k % kPieces);
      SIGLAB_CUDA_TRY(cudaMemcpyAsync(piece, static_cast<const unsigned char*>(from) + offset,
                                      std::min(StagingPieces::kBytes, bytes - offset), cudaMemcpyDeviceToHost,
                                      stream_.get()));
      done_[k % kPieces].record(stream_);
    };
    for (std::size_t k = 0; k + 1 < kPieces; ++k) queue(k);
    for (std::size_t offset = 0, k = 0; offset < bytes; offset += StagingPieces::kBytes, ++k) {
      queue(k + kPieces - 1);
      done_[k % kPieces].synchronize();
      parallelCopy(static_cast<unsigned char*>(to) + offset, piece_[k % kPieces],
                   std::min(StagingPieces::kBytes, bytes - offset), kCopyThreads);
    }
  }

 private:
  static constexpr std::size_t kPieces = 3;
  static constexpr int kCopyThreads = 8;  // parallelCopy takes at most the machine's

  // Staging piece b once the copy that last used it is done.
  void* freePiece(std::size_t b) {
    if (!piece_[b]) piece_[b] = StagingPieces::take();
    else done_[b].synchronize();
    return piece_[b];
  }

  StreamView stream_;
  void* piece_[kPieces] = {};
  Event done_[kPieces];
};

}  // namespace siglab::cuda
