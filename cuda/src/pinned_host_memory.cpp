// Page-locked host memory as a std::pmr resource: the loader's samples and an apply's result go
// here when a GPU engine will copy them, so the engines' copies read and write them directly.
#include <unistd.h>

#include <memory_resource>
#include <mutex>
#include <unordered_map>

#include "siglab/cuda_backends.hpp"

namespace siglab {
namespace {

// Pinning costs a system call and page locking: small blocks gain nothing from it.
constexpr std::size_t kMinPinnedBytes = std::size_t{1} << 20;
constexpr std::size_t kPinnedAlignment = 256;  // what cudaMallocHost guarantees

// Page-locked memory cannot be swapped out: leave three quarters of the machine's memory pageable.
std::size_t pinnedLimitBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  return pages > 0 && pageSize > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize) / 4 : 0;
}

class PinnedHostResource final : public std::pmr::memory_resource {
 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (bytes >= kMinPinnedBytes && alignment <= kPinnedAlignment && reserve(bytes)) {
      if (void* pointer = allocatePinnedHost(bytes)) {
        const std::lock_guard lock(mutex_);
        pinned_.emplace(pointer, bytes);
        return pointer;
      }
      const std::lock_guard lock(mutex_);
      pinnedBytes_ -= bytes;
    }
    return ordinary()->allocate(bytes, alignment);  // no GPU, or no page-locked memory left: ordinary memory
  }
  void do_deallocate(void* pointer, std::size_t bytes, std::size_t alignment) override {
    {
      const std::lock_guard lock(mutex_);
      if (const auto held = pinned_.find(pointer); held != pinned_.end()) {
        pinnedBytes_ -= held->second;
        pinned_.erase(held);
        freePinnedHost(pointer);
        return;
      }
    }
    ordinary()->deallocate(pointer, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  static std::pmr::memory_resource* ordinary() { return std::pmr::new_delete_resource(); }

  // Counts `bytes` as pinned if that stays within the limit.
  bool reserve(std::size_t bytes) {
    const std::lock_guard lock(mutex_);
    if (pinnedBytes_ + bytes > limit_) return false;
    pinnedBytes_ += bytes;
    return true;
  }

  std::mutex mutex_;
  std::unordered_map<void*, std::size_t> pinned_;  // block -> bytes
  std::size_t pinnedBytes_ = 0;
  const std::size_t limit_ = pinnedLimitBytes();
};

}  // namespace

std::pmr::memory_resource* pinnedHostMemory() {
  static auto* resource = new PinnedHostResource;  // never destroyed: blocks may be freed during exit
  return resource;
}

}  // namespace siglab
