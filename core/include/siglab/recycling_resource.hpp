#pragma once
// Memory for callers that make a new large result every call and drop the last one (Python's
// siglab.signal functions): a block given back is kept for the next allocation of the same size
// and alignment instead of going back upstream. New memory costs its pages' first-touch faults
// and the kernel's zeroing inside the run that writes it (a fifth of a 10M-sample sosfilt on the
// 2-core VM), page-locked memory its pinning (milliseconds); a kept block costs neither.
// At most kKeptBlocks blocks and kKeptBytes are kept, the most recently given back; blocks under
// `smallest` bytes pass straight through.
//
// A block may be prepared before it is first kept (`prepare`: pinning it, for one), and is then
// kept prepared across its reuses; `unprepare` undoes it before the block goes back upstream. A
// block `prepare` refuses goes straight back.
#include <cstddef>
#include <deque>
#include <functional>
#include <memory_resource>
#include <mutex>
#include <unordered_set>

namespace siglab {

class RecyclingResource final : public std::pmr::memory_resource {
 public:
  static constexpr std::size_t kKeptBlocks = 8;  // a find_peaks table has up to 9 columns, 5 by default
  static constexpr std::size_t kKeptBytes = std::size_t{512} << 20;

  using Prepare = std::function<bool(void* pointer, std::size_t bytes)>;
  using Unprepare = std::function<void(void* pointer)>;

  RecyclingResource(std::pmr::memory_resource* upstream, std::size_t smallest, Prepare prepare = {},
                    Unprepare unprepare = {});
  ~RecyclingResource() override;
  RecyclingResource(const RecyclingResource&) = delete;
  RecyclingResource& operator=(const RecyclingResource&) = delete;

  // Gives every kept block back upstream (tests; a caller about to need the memory).
  void dropKept() noexcept;

 private:
  struct Block {
    void* pointer;
    std::size_t bytes, alignment;
  };
  void* do_allocate(std::size_t bytes, std::size_t alignment) override;
  void do_deallocate(void* pointer, std::size_t bytes, std::size_t alignment) override;
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
  // Unprepares a kept block and gives it back upstream (the lock held).
  void release(const Block& block);

  std::pmr::memory_resource* upstream_;
  std::size_t smallest_;
  Prepare prepare_;
  Unprepare unprepare_;
  std::mutex mutex_;
  std::deque<Block> kept_;  // oldest first
  std::size_t keptBytes_ = 0;
  std::unordered_set<void*> prepared_;  // with `prepare`: blocks prepared, kept or lent out again since
};

// largePageResource() recycled: Python's module makes core's results and its own new arrays here.
RecyclingResource& recycledLargePageResource();

}  // namespace siglab
