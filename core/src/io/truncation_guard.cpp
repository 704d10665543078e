#include "truncation_guard.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <csignal>
#include <cstdint>
#include <mutex>

namespace siglab {
namespace {

struct GuardedRange {
  std::atomic<std::uintptr_t> begin{0};  // 0: the slot is free
  std::atomic<std::uintptr_t> end{0};
  std::atomic<bool> truncated{false};
};

// A fixed table: the signal handler may not allocate or lock.
std::array<GuardedRange, 64> g_ranges;
struct sigaction g_previous {};

void onSigbus(int signal, siginfo_t* info, void* context) {
  const auto address = reinterpret_cast<std::uintptr_t>(info->si_addr);
  for (GuardedRange& range : g_ranges) {
    const std::uintptr_t begin = range.begin.load(std::memory_order_acquire);
    const std::uintptr_t end = range.end.load(std::memory_order_acquire);
    if (begin <= 1 || address < begin || address >= end) continue;  // 0: free; 1: being filled in
    // Zero pages from the faulting page to the end of the range (all past the file's end now);
    // returning retries the access, which then reads zeros.
    const std::uintptr_t page = address & ~(static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE)) - 1);
    if (::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) ==
        MAP_FAILED) {
      break;
    }
    range.truncated.store(true, std::memory_order_release);
    return;
  }
  // Not ours: the handler that was there before, or the default action (the crash) on return.
  if (g_previous.sa_flags & SA_SIGINFO) {
    if (g_previous.sa_sigaction) return g_previous.sa_sigaction(signal, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    return g_previous.sa_handler(signal);
  }
  ::sigaction(SIGBUS, &g_previous, nullptr);
}

void installHandlerOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = onSigbus;
    action.sa_flags = SA_SIGINFO;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

}  // namespace

int guardMapping(void* begin, std::size_t length) {
  installHandlerOnce();
  const auto first = reinterpret_cast<std::uintptr_t>(begin);
  for (std::size_t slot = 0; slot < g_ranges.size(); ++slot) {
    std::uintptr_t expected = 0;
    GuardedRange& range = g_ranges[slot];
    // Claim the slot with a placeholder so the handler never sees a half-written range.
    if (!range.begin.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) continue;
    range.truncated.store(false, std::memory_order_relaxed);
    range.end.store(first + length, std::memory_order_release);
    range.begin.store(first, std::memory_order_release);
    return static_cast<int>(slot);
  }
  return -1;
}

bool wasTruncated(int slot) { return g_ranges[static_cast<std::size_t>(slot)].truncated.load(std::memory_order_acquire); }

void releaseGuard(int slot) {
  GuardedRange& range = g_ranges[static_cast<std::size_t>(slot)];
  range.end.store(0, std::memory_order_release);
  range.begin.store(0, std::memory_order_release);
}

}  // namespace siglab
