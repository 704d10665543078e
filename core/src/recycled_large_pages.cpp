#include "siglab/recycled_large_pages.hpp"

#include <algorithm>
#include <deque>
#include <mutex>
#include <utility>

namespace siglab {
namespace {

struct Kept {
  std::mutex mutex;
  std::deque<LargePageBuffer> buffers;  // oldest first
  std::size_t bytes = 0;
};

Kept& kept() {
  static auto* const all = new Kept;  // never destroyed: arrays may be freed during exit
  return *all;
}

}  // namespace

LargePageBuffer takeLargePages(std::size_t bytes) {
  if (bytes > 0) {
    Kept& k = kept();
    const std::lock_guard lock(k.mutex);
    // The newest first: its pages are the likeliest still in cache.
    for (auto it = k.buffers.rbegin(); it != k.buffers.rend(); ++it) {
      if (it->size() != bytes) continue;
      LargePageBuffer found = std::move(*it);
      k.buffers.erase(std::next(it).base());
      k.bytes -= bytes;
      return found;
    }
  }
  return LargePageBuffer(bytes);
}

void giveBackLargePages(LargePageBuffer&& buffer) noexcept {
  LargePageBuffer given = std::move(buffer);  // unmapped at the end where it is not kept
  if (given.data() == nullptr || given.size() > kKeptBytes) return;
  Kept& k = kept();
  const std::lock_guard lock(k.mutex);
  try {
    k.buffers.push_back(std::move(given));  // a failed push leaves `given` as it was
  } catch (...) {
    return;
  }
  k.bytes += k.buffers.back().size();
  while (k.buffers.size() > kKeptBuffers || k.bytes > kKeptBytes) {
    const LargePageBuffer oldest = std::move(k.buffers.front());
    k.buffers.pop_front();
    k.bytes -= oldest.size();
  }
}

void dropKeptLargePages() noexcept {
  std::deque<LargePageBuffer> dropped;
  Kept& k = kept();
  const std::lock_guard lock(k.mutex);
  dropped.swap(k.buffers);
  k.bytes = 0;
}

}  // namespace siglab
