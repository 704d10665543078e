// LargePageBuffer: 2 MiB-aligned fresh memory of the size asked for, every byte usable, given back
// to the kernel when the buffer (or the buffer it moved into) goes.
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "siglab/large_page_buffer.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(LargePageBuffer, IsAlignedToALargePageAndEveryByteIsFreshAndWritable) {
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4095}, kLargePageBytes - 1, kLargePageBytes,
                                  3 * kLargePageBytes + 8 * 1021}) {
    SCOPED_TRACE(bytes);
    LargePageBuffer buffer(bytes);
    ASSERT_NE(buffer.data(), nullptr);
    EXPECT_EQ(buffer.size(), bytes);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(buffer.data()) % kLargePageBytes, 0u);
    auto* bytesOf = static_cast<unsigned char*>(buffer.data());
    for (std::size_t i = 0; i < bytes; i += 4096) EXPECT_EQ(bytesOf[i], 0) << i;  // the kernel's zeroes
    EXPECT_EQ(bytesOf[bytes - 1], 0);
    std::memset(bytesOf, 0xA5, bytes);
    EXPECT_EQ(bytesOf[0], 0xA5);
    EXPECT_EQ(bytesOf[bytes - 1], 0xA5);
  }
}

TEST(LargePageBuffer, EmptyHoldsNothing) {
  LargePageBuffer empty(0);
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.size(), 0u);
  LargePageBuffer byDefault;
  EXPECT_EQ(byDefault.data(), nullptr);
}

TEST(LargePageBuffer, MemoryIsGivenBackOnDestructionAndMovesWithTheBuffer) {
  void* first = nullptr;
  {
    LargePageBuffer buffer(kLargePageBytes + 1);
    first = buffer.data();
    ASSERT_TRUE(test::mapped(first, buffer.size()));
    LargePageBuffer moved(std::move(buffer));
    EXPECT_EQ(moved.data(), first);
    EXPECT_EQ(moved.size(), kLargePageBytes + 1);
    EXPECT_EQ(buffer.data(), nullptr);  // NOLINT: a moved-from buffer is empty
    EXPECT_EQ(buffer.size(), 0u);       // NOLINT
    static_cast<unsigned char*>(moved.data())[kLargePageBytes] = 7;

    LargePageBuffer other(100);
    void* second = other.data();
    other = std::move(moved);  // gives back what `other` held first
    EXPECT_FALSE(test::mapped(second, 100));
    EXPECT_EQ(other.data(), first);
    EXPECT_EQ(static_cast<unsigned char*>(other.data())[kLargePageBytes], 7);
  }
  EXPECT_FALSE(test::mapped(first, 2 * kLargePageBytes));
}

TEST(LargePageBuffer, MoreThanTheAddressSpaceThrowsBadAlloc) {
  EXPECT_THROW(LargePageBuffer(SIZE_MAX - 1), std::bad_alloc);
  EXPECT_THROW(LargePageBuffer(std::size_t{1} << 62), std::bad_alloc);
}

}  // namespace
}  // namespace siglab
