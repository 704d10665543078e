#include "process_memory.hpp"

#include <malloc.h>

namespace siglab::gui {

void returnLargeBlocksToTheSystem() {
  constexpr int kLargeBlockBytes = 1 << 20;
  (void)::mallopt(M_MMAP_THRESHOLD, kLargeBlockBytes);  // a fixed threshold: glibc stops raising it
}

}  // namespace siglab::gui
