// DeviceBuffer's memory (device_buffer.hpp): each device's stream-ordered pool, set to keep up to
// kKeptBytes of freed blocks for the next buffers. cudaMalloc and cudaFree of a run's 80 MB took
// 0.1 ms each on the H200, and a GPU run from NumPy made and freed two such buffers (CuPy keeps a
// pool for the same reason). A block goes back to the pool once its device has finished the work
// queued so far, as cudaFree waited for it, so a block handed out again is never still in use.
#include <cuda_runtime.h>

#include <cstdint>
#include <mutex>
#include <new>
#include <vector>

#include "device_buffer.hpp"
#include "device_scope.hpp"
#include "siglab/cuda_backends.hpp"
#include "stream.hpp"

namespace siglab::cuda {
namespace {

constexpr std::uint64_t kKeptBytes = std::uint64_t{1} << 30;

// A device's pool and the stream its blocks are taken and given back on (no engine's: taking one
// waits for nothing).
struct KeepingPool {
  bool tried = false;
  cudaMemPool_t pool = nullptr;
  Stream* stream = nullptr;  // never destroyed: CUDA may be gone at exit
};

std::mutex poolsMutex;
std::vector<KeepingPool> pools;  // by device

// The current device's pool, set up at its first buffer: null where the device has no pool (its
// buffers are then cudaMalloc's). `setUp`: false looks only.
const KeepingPool* keepingPool(bool setUp) {
  const int device = currentDevice();
  const std::lock_guard lock(poolsMutex);
  if (static_cast<std::size_t>(device) >= pools.size()) pools.resize(static_cast<std::size_t>(device) + 1);
  KeepingPool& kept = pools[static_cast<std::size_t>(device)];
  if (!kept.tried && setUp) {
    kept.tried = true;
    cudaMemPool_t pool = nullptr;
    std::uint64_t threshold = kKeptBytes;  // the default gives every freed block back at the next synchronization
    if (cudaDeviceGetDefaultMemPool(&pool, device) == cudaSuccess &&
        cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold) == cudaSuccess) {
      kept.stream = new Stream;
      kept.pool = pool;
    } else {
      cudaGetLastError();
    }
  }
  return kept.pool ? &kept : nullptr;
}

}  // namespace

void DeviceMemory::allocate(void** pointer, std::size_t bytes) {
  const KeepingPool* kept = keepingPool(true);
  if (!kept) {
    SIGLAB_CUDA_TRY(cudaMalloc(pointer, bytes));
    return;
  }
  const cudaStream_t stream = kept->stream->get();
  try {
    SIGLAB_CUDA_TRY(cudaMallocAsync(pointer, bytes, stream));
  } catch (const OutOfDeviceMemory&) {  // the blocks kept may be what is missing
    cudaDeviceSynchronize();
    cudaMemPoolTrimTo(kept->pool, 0);
    SIGLAB_CUDA_TRY(cudaMallocAsync(pointer, bytes, stream));
  }
  SIGLAB_CUDA_TRY(cudaStreamSynchronize(stream));  // usable on any stream from here
}

void DeviceMemory::release(void* pointer) noexcept {
  const KeepingPool* kept = nullptr;
  try {
    kept = keepingPool(false);
  } catch (...) {  // no current device to tell: cudaFree's own way
  }
  if (!kept) {
    cudaFree(pointer);  // frees a pool's block too
    return;
  }
  cudaDeviceSynchronize();  // as cudaFree: nothing queued may still use the block
  if (cudaFreeAsync(pointer, kept->stream->get()) != cudaSuccess) cudaGetLastError();
}

}  // namespace siglab::cuda

namespace siglab {

void releaseKeptDeviceMemory() {
  const std::lock_guard lock(cuda::poolsMutex);
  for (std::size_t device = 0; device < cuda::pools.size(); ++device) {
    if (!cuda::pools[device].pool) continue;
    const cuda::DeviceScope scope(static_cast<int>(device), std::nothrow);
    cudaDeviceSynchronize();
    cudaMemPoolTrimTo(cuda::pools[device].pool, 0);
  }
  cudaGetLastError();
}

}  // namespace siglab
