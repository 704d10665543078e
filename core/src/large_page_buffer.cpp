#include "siglab/large_page_buffer.hpp"

#include <sys/mman.h>

#include <cstdint>
#include <new>
#include <utility>

namespace siglab {

LargePageBuffer::LargePageBuffer(std::size_t bytes) : bytes_(bytes) {
  if (bytes == 0) return;
  if (bytes > SIZE_MAX - 2 * kLargePageBytes) throw std::bad_alloc();
  mapped_ = (bytes + kLargePageBytes - 1) / kLargePageBytes * kLargePageBytes;
  // Map one large page more than needed, then unmap the unaligned head and the rest of the tail.
  const std::size_t overMapped = mapped_ + kLargePageBytes;
  void* raw = mmap(nullptr, overMapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto* start = static_cast<char*>(raw);
  const auto address = reinterpret_cast<std::uintptr_t>(start);
  const std::size_t head = (kLargePageBytes - address % kLargePageBytes) % kLargePageBytes;
  if (head > 0) munmap(start, head);
  const std::size_t tail = overMapped - head - mapped_;
  if (tail > 0) munmap(start + head + mapped_, tail);
  data_ = start + head;
#ifdef MADV_HUGEPAGE
  madvise(data_, mapped_, MADV_HUGEPAGE);  // a refusal (THP off) leaves ordinary pages: still correct
#endif
}

LargePageBuffer::~LargePageBuffer() { release(); }

LargePageBuffer::LargePageBuffer(LargePageBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, 0)) {}

LargePageBuffer& LargePageBuffer::operator=(LargePageBuffer&& other) noexcept {
  if (this != &other) {
    release();
    data_ = std::exchange(other.data_, nullptr);
    bytes_ = std::exchange(other.bytes_, 0);
    mapped_ = std::exchange(other.mapped_, 0);
  }
  return *this;
}

void LargePageBuffer::release() noexcept {
  if (data_) munmap(data_, mapped_);
  data_ = nullptr;
  bytes_ = 0;
  mapped_ = 0;
}

}  // namespace siglab
