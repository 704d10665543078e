#pragma once
// Results handed to a caller that allocates one per call (Python's siglab.signal functions): a
// buffer given back when its array goes is kept for the next result of the same size, its pages
// already faulted in. A new mapping costs the kernel's zeroing of every page at its first touch,
// inside the engine's run (on the 2-core VM a fifth of a 10M-sample sosfilt; on the GPU machine
// the fresh result's pages are written by the copies back). At most kKeptBuffers buffers and
// kKeptBytes are kept, the most recently given back; the rest go back to the kernel.
#include <cstddef>

#include "siglab/large_page_buffer.hpp"

namespace siglab {

inline constexpr std::size_t kKeptBuffers = 2;
inline constexpr std::size_t kKeptBytes = std::size_t{512} << 20;

// A kept buffer of exactly `bytes` (its contents whatever its last owner wrote), else a fresh one.
// Throws std::bad_alloc as LargePageBuffer does.
LargePageBuffer takeLargePages(std::size_t bytes);

// Keeps `buffer` for a later takeLargePages (unmapping the oldest kept beyond the limits), or
// unmaps it where it alone is over kKeptBytes. Never throws.
void giveBackLargePages(LargePageBuffer&& buffer) noexcept;

// Unmaps every kept buffer (tests; a caller about to need the memory).
void dropKeptLargePages() noexcept;

}  // namespace siglab
