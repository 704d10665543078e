#pragma once
// Work that must stay within a memory bound, run in a child process under RLIMIT_AS: an allocation
// that follows an argument instead of the data fails there (bad_alloc) instead of swapping the
// machine, and the test sees it as a failed child, whatever the time it would have taken.
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <exception>
#include <functional>
#include <string>

namespace siglab::test {

// Enough for the process's own mappings (thread stacks, malloc arenas) on a machine with many
// cores, far below the gigabytes an unbounded allocation of the arguments reaches.
inline constexpr std::uint64_t kBoundedAddressSpace = std::uint64_t{2} << 30;

// AddressSanitizer reserves terabytes of address space at start: under it (the sanitizer build, of
// the tests and of siglab-cli alike) no limit is set and only the work's result is checked; the
// Release build checks the bound.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kAddressSpaceLimitsApply = false;
#else
inline constexpr bool kAddressSpaceLimitsApply = true;
#endif

// Runs `work` in a child whose address space is limited to `bytes`; true when it returned true
// without throwing. The parent's memory is untouched.
inline bool succeedsWithin(std::uint64_t bytes, const std::function<bool()>& work) {
  const pid_t child = ::fork();
  if (child < 0) return false;
  if (child == 0) {
    if (kAddressSpaceLimitsApply) {
      const rlimit limit{bytes, bytes};
      ::setrlimit(RLIMIT_AS, &limit);
    }
    int code = 1;
    try {
      code = work() ? 0 : 1;
    } catch (...) {
      code = 2;
    }
    ::_exit(code);
  }
  int status = 0;
  if (::waitpid(child, &status, 0) != child) return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The shell prefix that runs a command under the same limit (OpenMP and malloc kept to a few
// threads and arenas, so that their reservations do not depend on the machine's cores).
inline std::string withinAddressSpace(std::uint64_t bytes) {
  const std::string threads = "OMP_NUM_THREADS=2 MALLOC_ARENA_MAX=2 ";
  return kAddressSpaceLimitsApply ? "ulimit -v " + std::to_string(bytes >> 10) + " && " + threads : threads;
}

}  // namespace siglab::test
