#pragma once
// Memory that knows where it lives, as RMM's device_buffer: a buffer is made on the current device
// for a stream of that device, keeps both, queues its copies on that stream and is freed on its own
// device whichever device is current then. Move-only; destructors free and never throw. An
// allocation that fails throws OutOfDeviceMemory (cuda_check.hpp).
#include <cuda_runtime.h>

#include <cstddef>
#include <new>
#include <optional>
#include <stdexcept>
#include <utility>

#include "cuda_check.hpp"
#include "device_scope.hpp"
#include "event_timer.hpp"
#include "stream.hpp"

namespace siglab::cuda {

inline int currentDevice() {
  int device = 0;
  SIGLAB_CUDA_TRY(cudaGetDevice(&device));
  return device;
}

// What DeviceBuffer and PinnedBuffer share: count, device, stream, moves; `Memory` says how to
// allocate and free.
template <class T, class Memory>
class OwnedBuffer {
 public:
  OwnedBuffer() = default;
  OwnedBuffer(std::size_t count, StreamView stream) : count_(count), device_(currentDevice()), stream_(stream) {
    if (count > 0) Memory::allocate(reinterpret_cast<void**>(&data_), count * sizeof(T));
  }
  OwnedBuffer(const OwnedBuffer&) = delete;
  OwnedBuffer& operator=(const OwnedBuffer&) = delete;
  OwnedBuffer(OwnedBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)), device_(other.device_),
        stream_(other.stream_) {}
  OwnedBuffer& operator=(OwnedBuffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
      device_ = other.device_;
      stream_ = other.stream_;
    }
    return *this;
  }
  ~OwnedBuffer() { reset(); }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }
  int device() const { return device_; }
  // The stream its copies go on; a buffer made empty by default has none.
  StreamView stream() const {
    if (!stream_) throw std::logic_error("a default-constructed buffer has no stream");
    return *stream_;
  }

  // `count` elements from host or device memory at `from` to this buffer's `offset`, queued on its stream.
  void copyFrom(const T* from, std::size_t count, std::size_t offset = 0) const {
    if (count > 0) SIGLAB_CUDA_TRY(cudaMemcpyAsync(data_ + offset, from, count * sizeof(T), cudaMemcpyDefault, stream().get()));
  }
  // `count` elements from this buffer's `offset` to `to`, queued on its stream.
  void copyTo(T* to, std::size_t count, std::size_t offset = 0) const {
    if (count > 0) SIGLAB_CUDA_TRY(cudaMemcpyAsync(to, data_ + offset, count * sizeof(T), cudaMemcpyDefault, stream().get()));
  }

 private:
  void reset() noexcept {
    if (data_) {
      const DeviceScope scope(device_, std::nothrow);
      Memory::release(data_);
    }
    data_ = nullptr;
    count_ = 0;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
  int device_ = -1;
  std::optional<StreamView> stream_;
};

// Device memory from the current device's stream-ordered pool, which keeps freed blocks for the
// next buffers (device_memory.cpp).
struct DeviceMemory {
  static void allocate(void** pointer, std::size_t bytes);
  static void release(void* pointer) noexcept;
};
// Page-locked host memory, which the copy engines read and write directly (pageable memory goes
// through the driver's own bounce buffer at a fraction of the speed).
struct PinnedMemory {
  static void allocate(void** pointer, std::size_t bytes) { SIGLAB_CUDA_TRY(cudaMallocHost(pointer, bytes)); }
  static void release(void* pointer) noexcept { cudaFreeHost(pointer); }
};

template <class T>
using DeviceBuffer = OwnedBuffer<T, DeviceMemory>;
template <class T>
using PinnedBuffer = OwnedBuffer<T, PinnedMemory>;

}  // namespace siglab::cuda
