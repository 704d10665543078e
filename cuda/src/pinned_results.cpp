// pinnedResultMemory(): results in recycled large pages, a dropped one's pages pinned in place and
// kept for the next result of their size (cuda_backends.hpp says why).
#include <memory_resource>

#include "siglab/cuda_backends.hpp"
#include "siglab/recycling_resource.hpp"

namespace siglab {

RecyclingResource* pinnedResultMemory() {
  // Pinning a block under 1 MiB gains nothing against its system calls. Never destroyed: results
  // may be freed during exit.
  static auto* const resource = new RecyclingResource(&recycledLargePageResource(), std::size_t{1} << 20,
                                                      registerPinnedHost, unregisterPinnedHost);
  return resource;
}

}  // namespace siglab
