#pragma once
// Streams as RMM has them: a Stream owns a non-blocking CUDA stream; a StreamView names one without
// owning it. A view comes only from a Stream, and 0 or nullptr do not convert to it, so no engine
// can queue work on the legacy default stream by accident (that stream waits for, and is waited on
// by, every other blocking stream of the device).
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuda_check.hpp"

namespace siglab::cuda {

class StreamView {
 public:
  StreamView(int) = delete;
  StreamView(std::nullptr_t) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const { SIGLAB_CUDA_TRY(cudaStreamSynchronize(stream_)); }

 private:
  friend class Stream;
  explicit StreamView(cudaStream_t stream) : stream_(stream) {}
  cudaStream_t stream_;
};

// A non-blocking CUDA stream of the current device (it does not wait for the legacy default stream).
class Stream {
 public:
  Stream() { SIGLAB_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  Stream& operator=(Stream&& other) noexcept {
    if (this != &other) {
      if (stream_) cudaStreamDestroy(stream_);
      stream_ = std::exchange(other.stream_, nullptr);
    }
    return *this;
  }
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  StreamView view() const { return StreamView(stream_); }
  cudaStream_t get() const { return stream_; }
  void synchronize() const { view().synchronize(); }

 private:
  cudaStream_t stream_ = nullptr;
};

}  // namespace siglab::cuda
