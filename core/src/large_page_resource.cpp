#include "siglab/large_page_resource.hpp"

#include <mutex>
#include <unordered_map>

#include "siglab/large_page_buffer.hpp"

namespace siglab {
namespace {

class LargePageResource final : public std::pmr::memory_resource {
 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    if (bytes < kLargePageBytes || alignment > kLargePageBytes) return small()->allocate(bytes, alignment);
    LargePageBuffer buffer(bytes);
    void* data = buffer.data();
    std::lock_guard lock(mutex_);
    buffers_.emplace(data, std::move(buffer));
    return data;
  }

  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    if (bytes < kLargePageBytes || alignment > kLargePageBytes) return small()->deallocate(p, bytes, alignment);
    LargePageBuffer released;
    {
      std::lock_guard lock(mutex_);
      const auto found = buffers_.find(p);
      released = std::move(found->second);
      buffers_.erase(found);
    }
  }  // unmapped here, outside the lock

  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  static std::pmr::memory_resource* small() { return std::pmr::new_delete_resource(); }

  std::mutex mutex_;
  std::unordered_map<void*, LargePageBuffer> buffers_;
};

}  // namespace

std::pmr::memory_resource& largePageResource() {
  static LargePageResource* resource = new LargePageResource;  // never destroyed: results may outlive main
  return *resource;
}

std::pmr::memory_resource* resultMemory() {
  std::pmr::memory_resource* chosen = std::pmr::get_default_resource();
  return chosen == std::pmr::new_delete_resource() ? &largePageResource() : chosen;
}

}  // namespace siglab
