// pinnedResultMemory(): results in recycled large pages, a dropped one's pages pinned in place and
// kept for the next result of their size (cuda_backends.hpp says why).
#include <deque>
#include <memory_resource>
#include <mutex>
#include <unordered_set>

#include "siglab/cuda_backends.hpp"
#include "siglab/recycling_resource.hpp"

namespace siglab {
namespace {

// Pinning a small block gains nothing against its system calls.
constexpr std::size_t kMinPinnedBytes = std::size_t{1} << 20;

class PinnedResults final : public std::pmr::memory_resource {
 private:
  struct Block {
    void* pointer;
    std::size_t bytes, alignment;
  };

  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    {
      const std::lock_guard lock(mutex_);
      for (auto it = kept_.rbegin(); it != kept_.rend(); ++it) {
        if (it->bytes != bytes || it->alignment != alignment) continue;
        void* pointer = it->pointer;
        kept_.erase(std::next(it).base());
        keptBytes_ -= bytes;
        return pointer;  // still pinned: registered_ holds it
      }
    }
    return pages().allocate(bytes, alignment);
  }

  void do_deallocate(void* pointer, std::size_t bytes, std::size_t alignment) override {
    const std::lock_guard lock(mutex_);
    bool pinned = registered_.contains(pointer);
    // Not pinned yet: pinned now where it is worth it and CUDA can (a GPU, the system's limit).
    if (!pinned && bytes >= kMinPinnedBytes && bytes <= RecyclingResource::kKeptBytes &&
        registerPinnedHost(pointer, bytes)) {
      try {
        registered_.insert(pointer);
        pinned = true;
      } catch (...) {
        unregisterPinnedHost(pointer);
      }
    }
    if (!pinned) return pages().deallocate(pointer, bytes, alignment);
    try {
      kept_.push_back({pointer, bytes, alignment});
    } catch (...) {  // no room to remember it
      return release({pointer, bytes, alignment});
    }
    keptBytes_ += bytes;
    while (kept_.size() > RecyclingResource::kKeptBlocks || keptBytes_ > RecyclingResource::kKeptBytes) {
      const Block oldest = kept_.front();
      kept_.pop_front();
      keptBytes_ -= oldest.bytes;
      release(oldest);
    }
  }

  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }

  // Unpins a pinned block and gives its pages back.
  void release(const Block& block) {
    unregisterPinnedHost(block.pointer);
    registered_.erase(block.pointer);
    pages().deallocate(block.pointer, block.bytes, block.alignment);
  }

  static std::pmr::memory_resource& pages() { return recycledLargePageResource(); }

  std::mutex mutex_;
  std::deque<Block> kept_;               // oldest first, each pinned
  std::size_t keptBytes_ = 0;
  std::unordered_set<void*> registered_;  // pinned here: kept, or lent to a result again
};

}  // namespace

std::pmr::memory_resource* pinnedResultMemory() {
  static auto* const resource = new PinnedResults;  // never destroyed: results may be freed during exit
  return resource;
}

}  // namespace siglab
