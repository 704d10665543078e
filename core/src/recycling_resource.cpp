#include "siglab/recycling_resource.hpp"

#include <utility>

#include "siglab/large_page_buffer.hpp"
#include "siglab/large_page_resource.hpp"

namespace siglab {

RecyclingResource::RecyclingResource(std::pmr::memory_resource* upstream, std::size_t smallest, Prepare prepare,
                                     Unprepare unprepare)
    : upstream_(upstream), smallest_(smallest), prepare_(std::move(prepare)), unprepare_(std::move(unprepare)) {}

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
  if (prepare_ && !prepared_.contains(pointer)) {  // first kept: prepared now, or refused
    if (!prepare_(pointer, bytes)) return upstream_->deallocate(pointer, bytes, alignment);
    try {
      prepared_.insert(pointer);
    } catch (...) {  // no room to remember it
      if (unprepare_) unprepare_(pointer);
      return upstream_->deallocate(pointer, bytes, alignment);
    }
  }
  try {
    kept_.push_back({pointer, bytes, alignment});
  } catch (...) {
    return release({pointer, bytes, alignment});
  }
  keptBytes_ += bytes;
  while (kept_.size() > kKeptBlocks || keptBytes_ > kKeptBytes) {
    const Block oldest = kept_.front();
    kept_.pop_front();
    keptBytes_ -= oldest.bytes;
    release(oldest);
  }
}

void RecyclingResource::release(const Block& block) {
  if (prepare_) {
    if (unprepare_) unprepare_(block.pointer);
    prepared_.erase(block.pointer);
  }
  upstream_->deallocate(block.pointer, block.bytes, block.alignment);
}

void RecyclingResource::dropKept() noexcept {
  const std::lock_guard lock(mutex_);
  for (const Block& b : kept_) release(b);
  kept_.clear();
  keptBytes_ = 0;
}

RecyclingResource& recycledLargePageResource() {
  // Never destroyed: results may be freed during exit.
  static auto* const resource = new RecyclingResource(&largePageResource(), kLargePageBytes);
  return *resource;
}

}  // namespace siglab
