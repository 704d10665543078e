#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "cuda_check.hpp"

namespace siglab::cuda {

// Owns n elements of device memory. Move-only; the destructor frees and never throws.
template <class T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) : count_(count) {
    if (count > 0) SIGLAB_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  ~DeviceBuffer() { reset(); }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void reset() noexcept {
    if (data_) cudaFree(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// Owns n elements of page-locked host memory, which the copy engines read and write directly
// (pageable memory goes through the driver's own bounce buffer at a fraction of the speed).
template <class T>
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t count) : count_(count) {
    if (count > 0) SIGLAB_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  ~PinnedBuffer() { reset(); }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void reset() noexcept {
    if (data_) cudaFreeHost(data_);
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

// A non-blocking CUDA stream (it does not wait for the legacy default stream).
class Stream {
 public:
  Stream() { SIGLAB_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  Stream(Stream&& other) noexcept : stream_(std::exchange(other.stream_, nullptr)) {}
  ~Stream() {
    if (stream_) cudaStreamDestroy(stream_);
  }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// A CUDA event for timing.
class Event {
 public:
  Event() { SIGLAB_CUDA_TRY(cudaEventCreate(&event_)); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  Event(Event&& other) noexcept : event_(std::exchange(other.event_, nullptr)) {}
  ~Event() {
    if (event_) cudaEventDestroy(event_);
  }
  void record(cudaStream_t stream = nullptr) { SIGLAB_CUDA_TRY(cudaEventRecord(event_, stream)); }
  cudaEvent_t get() const { return event_; }

  // Milliseconds from `start` to this event; both must have completed.
  float millisSince(const Event& start) const {
    float ms = 0.0f;
    SIGLAB_CUDA_TRY(cudaEventElapsedTime(&ms, start.event_, event_));
    return ms;
  }

 private:
  cudaEvent_t event_ = nullptr;
};

}  // namespace siglab::cuda
