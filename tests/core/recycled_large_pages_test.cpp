// Kept result buffers: a buffer given back comes back to the next request of its size, at most
// kKeptBuffers and kKeptBytes are kept (the newest), and everything else is unmapped.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "siglab/large_page_resource.hpp"
#include "siglab/recycled_large_pages.hpp"

namespace siglab {
namespace {

bool mapped(const void* p, std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  std::vector<unsigned char> residency((bytes + page - 1) / page);
  errno = 0;
  const int rc = mincore(const_cast<void*>(p), bytes, residency.data());
  return rc == 0 || errno != ENOMEM;
}

class RecycledLargePages : public ::testing::Test {
 protected:
  void SetUp() override { dropKeptLargePages(); }
  void TearDown() override { dropKeptLargePages(); }
};

TEST_F(RecycledLargePages, ABufferGivenBackServesTheNextRequestOfItsSizeWithItsContents) {
  const std::size_t bytes = 3 * kLargePageBytes + 40;
  LargePageBuffer first = takeLargePages(bytes);
  void* where = first.data();
  std::memset(where, 0x5A, bytes);
  giveBackLargePages(std::move(first));
  EXPECT_EQ(first.data(), nullptr);  // NOLINT: given away
  ASSERT_TRUE(mapped(where, bytes));

  LargePageBuffer other = takeLargePages(bytes + 8);  // another size: a fresh mapping
  EXPECT_NE(other.data(), where);
  EXPECT_EQ(static_cast<unsigned char*>(other.data())[0], 0);

  LargePageBuffer again = takeLargePages(bytes);
  EXPECT_EQ(again.data(), where);
  EXPECT_EQ(again.size(), bytes);
  EXPECT_EQ(static_cast<unsigned char*>(again.data())[bytes - 1], 0x5A);
  LargePageBuffer next = takeLargePages(bytes);  // taken: the cache no longer holds it
  EXPECT_NE(next.data(), where);
}

TEST_F(RecycledLargePages, OnlyTheNewestBuffersWithinTheLimitsAreKept) {
  const std::size_t bytes = kLargePageBytes;
  std::vector<void*> where;
  for (std::size_t k = 0; k < kKeptBuffers + 1; ++k) {
    LargePageBuffer buffer = takeLargePages(bytes);
    where.push_back(buffer.data());
    giveBackLargePages(std::move(buffer));
  }
  // Each take above reused the one given back just before: one mapping served every round.
  EXPECT_EQ(where.front(), where.back());

  std::vector<LargePageBuffer> held;
  for (std::size_t k = 0; k < kKeptBuffers + 1; ++k) held.push_back(LargePageBuffer(bytes));
  std::vector<void*> given;
  for (LargePageBuffer& buffer : held) {
    given.push_back(buffer.data());
    giveBackLargePages(std::move(buffer));
  }
  // The oldest of kKeptBuffers + 1 (and the first mapping, kept before them) are unmapped.
  EXPECT_FALSE(mapped(given.front(), bytes));
  EXPECT_FALSE(mapped(where.front(), bytes));
  for (std::size_t k = 1; k < given.size(); ++k) EXPECT_TRUE(mapped(given[k], bytes)) << k;
  for (std::size_t k = 0; k < kKeptBuffers; ++k) {
    LargePageBuffer back = takeLargePages(bytes);
    EXPECT_EQ(back.data(), given[given.size() - 1 - k]) << k;  // the newest first
  }
}

TEST_F(RecycledLargePages, ABufferOverTheByteLimitIsUnmappedNotKept) {
  LargePageBuffer big(kKeptBytes + 1);
  void* where = big.data();
  giveBackLargePages(std::move(big));
  EXPECT_FALSE(mapped(where, kLargePageBytes));
  giveBackLargePages(LargePageBuffer());  // nothing to keep
  LargePageBuffer empty = takeLargePages(0);
  EXPECT_EQ(empty.data(), nullptr);
}

TEST_F(RecycledLargePages, DroppingUnmapsWhatIsKept) {
  LargePageBuffer buffer = takeLargePages(kLargePageBytes);
  void* where = buffer.data();
  giveBackLargePages(std::move(buffer));
  ASSERT_TRUE(mapped(where, kLargePageBytes));
  dropKeptLargePages();
  EXPECT_FALSE(mapped(where, kLargePageBytes));
}

TEST_F(RecycledLargePages, TheRecycledResourceGivesADeallocatedBlockToTheNextOfItsSize) {
  std::pmr::memory_resource& recycled = recycledLargePageResource();
  const std::size_t bytes = 2 * kLargePageBytes + 24;
  void* first = recycled.allocate(bytes, alignof(double));
  static_cast<unsigned char*>(first)[bytes - 1] = 9;
  recycled.deallocate(first, bytes, alignof(double));
  EXPECT_TRUE(mapped(first, bytes));  // kept
  void* second = recycled.allocate(bytes, alignof(double));
  EXPECT_EQ(second, first);
  recycled.deallocate(second, bytes, alignof(double));

  // The plain resource keeps nothing: its block is unmapped when deallocated.
  dropKeptLargePages();
  std::pmr::memory_resource& plain = largePageResource();
  void* own = plain.allocate(bytes, alignof(double));
  plain.deallocate(own, bytes, alignof(double));
  EXPECT_FALSE(mapped(own, bytes));
}

}  // namespace
}  // namespace siglab
