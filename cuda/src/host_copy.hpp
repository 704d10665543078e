#pragma once
#include <cstddef>

namespace siglab::cuda {

// memcpy split over several CPU threads: one thread copies about 10 GB/s, too slow to stage
// pageable memory for a 55 GB/s link; OpenMP's persistent pool keeps the per-call cost low.
void parallelCopy(void* destination, const void* source, std::size_t bytes);

}  // namespace siglab::cuda
