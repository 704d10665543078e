#pragma once
#include <cstddef>

namespace siglab::cuda {

// memcpy split over up to `threads` CPU threads: one thread copies about 10 GB/s, too slow to stage
// pageable memory for a 55 GB/s link; OpenMP's persistent pool keeps the per-call cost low. Two
// host threads may each run one at once (a pipeline stages its input and its output that way).
void parallelCopy(void* destination, const void* source, std::size_t bytes, int threads = 8);

}  // namespace siglab::cuda
