// RecyclingResource: a block given back serves the next allocation of its size and alignment, at
// most kKeptBlocks and kKeptBytes are kept (the newest), small blocks and everything else go back
// upstream; recycledLargePageResource keeps large pages mapped between results.
#include "siglab/recycling_resource.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <vector>

#include "siglab/large_page_buffer.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// Upstream memory that counts what is outstanding.
class CountingResource final : public std::pmr::memory_resource {
 public:
  std::size_t outstanding() const { return blocks_.size(); }
  std::size_t allocations = 0;

 private:
  void* do_allocate(std::size_t bytes, std::size_t alignment) override {
    ++allocations;
    void* p = std::pmr::new_delete_resource()->allocate(bytes, alignment);
    blocks_[p] = bytes;
    return p;
  }
  void do_deallocate(void* p, std::size_t bytes, std::size_t alignment) override {
    EXPECT_EQ(blocks_.at(p), bytes);
    blocks_.erase(p);
    std::pmr::new_delete_resource()->deallocate(p, bytes, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
  std::map<void*, std::size_t> blocks_;
};

TEST(RecyclingResource, ABlockGivenBackServesTheNextAllocationOfItsSizeAndAlignment) {
  CountingResource upstream;
  {
    RecyclingResource recycled(&upstream, 1000);
    void* first = recycled.allocate(4096, 64);
    std::memset(first, 0x5A, 4096);
    recycled.deallocate(first, 4096, 64);
    EXPECT_EQ(upstream.outstanding(), 1u);  // kept, not given back

    void* other = recycled.allocate(4104, 64);  // another size: from upstream
    void* aligned = recycled.allocate(4096, 128);  // another alignment: from upstream
    EXPECT_NE(other, first);
    EXPECT_NE(aligned, first);
    void* again = recycled.allocate(4096, 64);
    EXPECT_EQ(again, first);
    EXPECT_EQ(static_cast<unsigned char*>(again)[4095], 0x5A);  // as its last owner left it
    void* next = recycled.allocate(4096, 64);  // taken: nothing kept of that size now
    EXPECT_NE(next, first);
    EXPECT_EQ(upstream.allocations, 4u);

    void* small = recycled.allocate(999, 8);  // under `smallest`: straight through both ways
    recycled.deallocate(small, 999, 8);
    EXPECT_EQ(upstream.outstanding(), 4u);
    for (void* p : {other, again, next}) recycled.deallocate(p, p == other ? 4104 : 4096, 64);
    recycled.deallocate(aligned, 4096, 128);
  }
  EXPECT_EQ(upstream.outstanding(), 0u);  // the resource gives back what it kept when it goes
}

TEST(RecyclingResource, OnlyTheNewestBlocksWithinTheLimitsAreKept) {
  CountingResource upstream;
  RecyclingResource recycled(&upstream, 1);
  std::vector<void*> given;
  for (std::size_t k = 0; k < RecyclingResource::kKeptBlocks + 2; ++k) given.push_back(recycled.allocate(256, 8));
  for (void* p : given) recycled.deallocate(p, 256, 8);
  EXPECT_EQ(upstream.outstanding(), RecyclingResource::kKeptBlocks);
  for (std::size_t k = 0; k < RecyclingResource::kKeptBlocks; ++k) {
    EXPECT_EQ(recycled.allocate(256, 8), given[given.size() - 1 - k]) << k;  // the newest first
  }
  const std::size_t before = upstream.allocations;
  void* fresh = recycled.allocate(256, 8);
  EXPECT_EQ(upstream.allocations, before + 1);
  for (std::size_t k = 0; k < RecyclingResource::kKeptBlocks; ++k) recycled.deallocate(given[given.size() - 1 - k], 256, 8);
  recycled.deallocate(fresh, 256, 8);  // the oldest kept goes back for it
  EXPECT_EQ(upstream.outstanding(), RecyclingResource::kKeptBlocks);
  recycled.dropKept();
  EXPECT_EQ(upstream.outstanding(), 0u);
}

TEST(RecyclingResource, ABlockOverTheByteLimitGoesStraightBack) {
  CountingResource upstream;
  RecyclingResource recycled(&upstream, 1);
  void* big = recycled.allocate(RecyclingResource::kKeptBytes + 1, 8);
  recycled.deallocate(big, RecyclingResource::kKeptBytes + 1, 8);
  EXPECT_EQ(upstream.outstanding(), 0u);
}

// Prepared once before it is first kept, kept prepared across reuses, unprepared before it goes
// back upstream; a block `prepare` refuses goes straight back.
TEST(RecyclingResource, ABlockIsPreparedOnceWhenFirstKeptAndUnpreparedWhenItGoes) {
  CountingResource upstream;
  std::map<void*, int> prepared, unprepared;
  bool refuse = false;
  RecyclingResource recycled(
      &upstream, 64, [&](void* p, std::size_t) { return !refuse && ++prepared[p] > 0; },
      [&](void* p) { ++unprepared[p]; });
  void* block = recycled.allocate(4096, 64);
  for (int round = 0; round < 3; ++round) {
    recycled.deallocate(block, 4096, 64);
    EXPECT_EQ(recycled.allocate(4096, 64), block) << round;
  }
  EXPECT_EQ(prepared[block], 1);  // not again on its reuses
  EXPECT_EQ(unprepared[block], 0);
  recycled.deallocate(block, 4096, 64);
  recycled.dropKept();
  EXPECT_EQ(unprepared[block], 1);
  EXPECT_EQ(upstream.outstanding(), 0u);

  refuse = true;
  void* refused = recycled.allocate(4096, 64);
  recycled.deallocate(refused, 4096, 64);
  EXPECT_EQ(upstream.outstanding(), 0u);  // not kept
  void* small = recycled.allocate(32, 8);  // under `smallest`: never prepared
  recycled.deallocate(small, 32, 8);
  EXPECT_EQ(prepared.count(small), 0u);
}

TEST(RecyclingResource, RecycledLargePagesStayMappedForTheNextResultOfTheirSize) {
  RecyclingResource& recycled = recycledLargePageResource();
  recycled.dropKept();
  const std::size_t bytes = 2 * kLargePageBytes + 24;
  void* first = recycled.allocate(bytes, alignof(double));
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % kLargePageBytes, 0u);
  recycled.deallocate(first, bytes, alignof(double));
  EXPECT_TRUE(test::mapped(first, bytes));
  void* second = recycled.allocate(bytes, alignof(double));
  EXPECT_EQ(second, first);
  recycled.deallocate(second, bytes, alignof(double));
  recycled.dropKept();
  EXPECT_FALSE(test::mapped(first, bytes));
}

}  // namespace
}  // namespace siglab
