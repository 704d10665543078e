#pragma once
// The GPU engines behind plain C++ types: no CUDA header is needed to use them.
#include <cstddef>
#include <memory>
#include <memory_resource>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "siglab/filter_backend.hpp"
#include "siglab/recycling_resource.hpp"

namespace siglab {

struct DeviceInfo {
  bool available = false;
  std::string reason;            // why not, when unavailable
  int index = -1;
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  std::size_t totalMemoryBytes = 0;
  std::size_t freeMemoryBytes = 0;
  int multiprocessors = 0;
  std::size_t l2CacheBytes = 0;
  int memoryBusWidthBits = 0;
  int memoryClockKHz = 0;
  int driverVersion = 0;         // e.g. 13000 for CUDA 13.0
  int runtimeVersion = 0;

  // The datasheet-style figure from bus width and clock (double data rate), in GB/s.
  double theoreticalBandwidthGBs() const {
    return 2.0 * memoryClockKHz * 1e3 * (memoryBusWidthBits / 8.0) / 1e9;
  }
};

// Every CUDA device, or one unavailable entry whose reason says why there are none.
std::vector<DeviceInfo> probeDevices();

// Whether this program was built with the CUDA backends.
bool builtWithCuda();

// How gpu-tuned moves data. The defaults suit any signal; the budget forces chunking in tests.
struct CudaOptions {
  std::size_t memoryBudgetBytes = 0;  // device memory gpu-tuned may use; 0: 90% of what is free
  std::size_t chunkSamples = 0;       // samples per transfer chunk; 0: chosen from the signal size
  int streams = 8;                    // chunks in flight, each on its own stream (8 measured best)
  bool overlapTransfers = true;       // false: the seed's whole-signal copy in, filter, copy out
  // The GPUs every GPU engine runs on (siglab/device_list.hpp): empty or one device, that device
  // alone (device 0 when empty); several, one contiguous part of the signal each, at once.
  std::vector<int> devices;
};

// gpu-global, gpu-constant, gpu-shared and gpu-tuned on options.devices. They are always listed;
// on a machine without a usable GPU each gives the reason through whyNot().
BackendList makeCudaBackends(const CudaOptions& options = {});
// The same for a device already probed (probeDevices().front()): a session probes once.
BackendList makeCudaBackends(const CudaOptions& options, const DeviceInfo& firstDevice);

// gpu-tuned alone: the fastest kernel, fed by pinned, chunked, multi-stream transfers; signals
// larger than the memory budget are filtered chunk by chunk with halos, giving the same bits.
std::unique_ptr<FilterBackend> makeTunedCudaBackend(const CudaOptions& options = {});

// Page-locked host memory allocation, or nullptr where CUDA cannot provide it.
void* allocatePinnedHost(std::size_t bytes);
void freePinnedHost(void* pointer);

// Page-locked host memory as a std::pmr resource (ReadOptions::hostMemory): the GPU engines copy
// from and to it directly instead of staging through buffers of their own. Blocks under 1 MiB, and
// every block where nothing can be pinned (no GPU, or the system's limit reached), are ordinary
// memory. One resource for the whole program; never destroyed.
std::pmr::memory_resource* pinnedHostMemory();

// Pins (page-locks) host memory allocated elsewhere, in place: false where CUDA cannot (no GPU, a
// build without CUDA, the range already pinned). unregisterPinnedHost undoes it.
bool registerPinnedHost(void* pointer, std::size_t bytes);
void unregisterPinnedHost(void* pointer);

// Memory for new results a GPU engine copies back to (Python's arrays when the last stage is named
// for a GPU engine): recycledLargePageResource()'s, except that a dropped result's pages are pinned
// in place and kept for the next result of their size, which the copies back then write directly
// instead of through staging pieces. A new result is never pinned: cudaMallocHost of 80 MB took
// about 50 ms on the H200 host, pinning a dropped result's 80 MB in place about 2 ms, once.
// One resource for the whole program; never destroyed.
RecyclingResource* pinnedResultMemory();

// Gives the device memory the GPU engines keep for their next buffers (at most 1 GiB a device,
// device_memory.cpp) back to the devices; nothing where there is none.
void releaseKeptDeviceMemory();

// A host array the GPU engines copy to and from at full link speed (they stage any other memory
// through pinned buffers of their own). Holds ordinary memory where pinning is not possible.
template <class T>
class PinnedHostVector {
 public:
  explicit PinnedHostVector(std::size_t count) : count_(count) {
    data_ = static_cast<T*>(allocatePinnedHost(count * sizeof(T)));
    if (!data_ && count > 0) {
      fallback_ = std::make_unique<T[]>(count);
      data_ = fallback_.get();
    }
  }
  PinnedHostVector(const PinnedHostVector&) = delete;
  PinnedHostVector& operator=(const PinnedHostVector&) = delete;
  ~PinnedHostVector() {
    if (!fallback_ && data_) freePinnedHost(data_);
  }
  bool pinned() const { return count_ == 0 || !fallback_; }
  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::span<T> span() const { return {data_, count_}; }

 private:
  std::size_t count_ = 0;
  T* data_ = nullptr;
  std::unique_ptr<T[]> fallback_;
};

}  // namespace siglab
