#pragma once
// Memory for a large new result, straight from the kernel in 2 MiB pages where it grants them.
// Memory new to a process is zeroed by the kernel at its first touch, whoever allocates it; 2 MiB
// pages take 512 times fewer faults than 4 KiB ones, and a mapping aligned to 2 MiB has no 4 KiB
// pages at its ends (malloc's, which NumPy uses for large arrays, has up to 2 MiB at each end).
// Measured on the 2-core VM, filtering 10M float64 (docs/perf/python-speed-10M.txt): into a new
// buffer 1.5x the time into a reused one, into NumPy's new array 1.17x more, into a new
// std::vector (zeroed, 4 KiB pages) 4.2x more.
#include <cstddef>

namespace siglab {

inline constexpr std::size_t kLargePageBytes = std::size_t{2} << 20;

class LargePageBuffer {
 public:
  LargePageBuffer() = default;
  // `bytes` of fresh memory, 2 MiB-aligned, asked for in 2 MiB pages (madvise MADV_HUGEPAGE: the
  // kernel may still give 4 KiB ones). Untouched until written: the kernel zeroes each page on
  // its first touch, by the thread that touches it. Throws std::bad_alloc.
  explicit LargePageBuffer(std::size_t bytes);
  ~LargePageBuffer();
  LargePageBuffer(LargePageBuffer&& other) noexcept;
  LargePageBuffer& operator=(LargePageBuffer&& other) noexcept;
  LargePageBuffer(const LargePageBuffer&) = delete;
  LargePageBuffer& operator=(const LargePageBuffer&) = delete;

  void* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return bytes_; }

 private:
  void release() noexcept;

  void* data_ = nullptr;
  std::size_t bytes_ = 0;   // asked for
  std::size_t mapped_ = 0;  // mapped: bytes_ rounded up to 2 MiB
};

}  // namespace siglab
