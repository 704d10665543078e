#pragma once
// The threads a parallel region may use here: every core, except in a child forked after the
// parent's threads ran, where libgomp's thread pool is gone and a parallel region waits for threads
// that will never come: one there.
#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>

namespace siglab::detail {

inline const pid_t kProcessAtLoad = ::getpid();

inline std::size_t usableThreads() {
  if (::getpid() != kProcessAtLoad) return 1;
  return static_cast<std::size_t>(std::max(1, omp_get_max_threads()));
}

}  // namespace siglab::detail
