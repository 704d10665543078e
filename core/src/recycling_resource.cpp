#include "siglab/recycling_resource.hpp"

#include "siglab/large_page_buffer.hpp"
#include "siglab/large_page_resource.hpp"

namespace siglab {

RecyclingResource::RecyclingResource(std::pmr::memory_resource* upstream, std::size_t smallest)
    : upstream_(upstream), smallest_(smallest) {}

RecyclingResource::~RecyclingResource() { dropKept(); }

void* RecyclingResource::do_allocate(std::size_t bytes, std::size_t alignment) {
  if (bytes >= smallest_) {
    const std::lock_guard lock(mutex_);
    // The newest first: its pages are the likeliest still in cache.
    for (auto it = kept_.rbegin(); it != kept_.rend(); ++it) {
      if (it->bytes != bytes || it->alignment != alignment) continue;
      void* pointer = it->pointer;
      kept_.erase(std::next(it).base());
      keptBytes_ -= bytes;
      return pointer;
    }
  }
  return upstream_->allocate(bytes, alignment);
}

void RecyclingResource::do_deallocate(void* pointer, std::size_t bytes, std::size_t alignment) {
  if (bytes < smallest_ || bytes > kKeptBytes) return upstream_->deallocate(pointer, bytes, alignment);
  const std::lock_guard lock(mutex_);
  try {
    kept_.push_back({pointer, bytes, alignment});
  } catch (...) {  // no room to remember it: back upstream now
    upstream_->deallocate(pointer, bytes, alignment);
    return;
  }
  keptBytes_ += bytes;
  while (kept_.size() > kKeptBlocks || keptBytes_ > kKeptBytes) {
    const Block oldest = kept_.front();
    kept_.pop_front();
    keptBytes_ -= oldest.bytes;
    upstream_->deallocate(oldest.pointer, oldest.bytes, oldest.alignment);
  }
}

void RecyclingResource::dropKept() noexcept {
  const std::lock_guard lock(mutex_);
  for (const Block& b : kept_) upstream_->deallocate(b.pointer, b.bytes, b.alignment);
  kept_.clear();
  keptBytes_ = 0;
}

RecyclingResource& recycledLargePageResource() {
  // Never destroyed: results may be freed during exit.
  static auto* const resource = new RecyclingResource(&largePageResource(), kLargePageBytes);
  return *resource;
}

}  // namespace siglab
