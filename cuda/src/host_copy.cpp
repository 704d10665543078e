#include "host_copy.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace siglab::cuda {

void parallelCopy(void* destination, const void* source, std::size_t bytes, int maxThreads) {
  constexpr std::size_t kPiece = 512 << 10;
  const auto pieces = static_cast<std::int64_t>((bytes + kPiece - 1) / kPiece);
  auto* to = static_cast<unsigned char*>(destination);
  const auto* from = static_cast<const unsigned char*>(source);
  if (pieces <= 1) {
    if (bytes > 0) std::memcpy(to, from, bytes);
    return;
  }
  const int threads = static_cast<int>(std::min({pieces, static_cast<std::int64_t>(std::max(1, maxThreads)),
                                                    static_cast<std::int64_t>(omp_get_max_threads())}));
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::size_t offset = static_cast<std::size_t>(p) * kPiece;
    std::memcpy(to + offset, from + offset, std::min(kPiece, bytes - offset));
  }
}

}  // namespace siglab::cuda
