#include "parallel_work.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>

namespace siglab {

void runParallel(std::size_t count, const std::function<void(std::size_t)>& task) {
  const std::size_t threads = std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr firstFailure;
  std::mutex failureMutex;
  auto work = [&] {
    for (std::size_t i = next++; i < count && !failed.load(std::memory_order_relaxed); i = next++) {
      try {
        task(i);
      } catch (...) {
        const std::lock_guard lock(failureMutex);
        if (!firstFailure) firstFailure = std::current_exception();
        failed = true;
      }
    }
  };
  std::vector<std::jthread> helpers;
  for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
  work();
  helpers.clear();  // joins
  if (firstFailure) std::rethrow_exception(firstFailure);
}

Progress progressSlice(const Progress& whole, double from, double to) {
  Progress slice;
  slice.cancelFlag = whole.cancelFlag;
  if (whole.onProgress) {
    slice.onProgress = [callback = whole.onProgress, from, to](double f) { callback(from + f * (to - from)); };
  }
  return slice;
}

std::vector<double> allocateSamples(std::size_t n) {
  std::vector<double> samples;
  samples.reserve(n);
  constexpr std::uintptr_t kHugePage = 2u << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(samples.data());
  const std::uintptr_t alignedBegin = (begin + kHugePage - 1) & ~(kHugePage - 1);
  const std::uintptr_t end = begin + n * sizeof(double);
  if (end > alignedBegin + kHugePage) {
    ::madvise(reinterpret_cast<void*>(alignedBegin), (end - alignedBegin) & ~(kHugePage - 1), MADV_HUGEPAGE);
  }
  samples.resize(n);
  return samples;
}

}  // namespace siglab
