#include "parallel_work.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
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

void produceInParallelConsumeInOrder(std::size_t count, const std::function<void(std::size_t, std::string&)>& produce,
                                     const std::function<void(std::size_t, const std::string&)>& consume) {
  constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  const std::size_t producers = std::min<std::size_t>(count, std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t slots = 2 * producers + 1;
  std::vector<std::string> buffers(slots);
  std::vector<std::size_t> holds(slots, kNone);  // the piece a slot holds, once it is complete
  std::mutex mutex;
  std::condition_variable changed;
  std::size_t consumed = 0;
  std::size_t next = 0;
  bool stop = false;
  std::exception_ptr failure;

  auto producer = [&] {
    std::unique_lock lock(mutex);
    for (;;) {
      const std::size_t i = next++;
      if (i >= count) return;
      changed.wait(lock, [&] { return stop || i < consumed + slots; });  // its slot is free
      if (stop) return;
      lock.unlock();
      try {
        produce(i, buffers[i % slots]);
      } catch (...) {
        lock.lock();
        if (!failure) failure = std::current_exception();
        stop = true;
        changed.notify_all();
        return;
      }
      lock.lock();
      holds[i % slots] = i;
      changed.notify_all();
    }
  };
  std::vector<std::jthread> threads;
  try {
    for (std::size_t t = 0; t < producers; ++t) threads.emplace_back(producer);
    for (std::size_t i = 0; i < count; ++i) {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return stop || holds[i % slots] == i; });
      if (stop) break;
      lock.unlock();
      consume(i, buffers[i % slots]);
      lock.lock();
      holds[i % slots] = kNone;
      consumed = i + 1;
      changed.notify_all();
    }
  } catch (...) {
    const std::lock_guard lock(mutex);
    if (!failure) failure = std::current_exception();
    stop = true;
    changed.notify_all();
  }
  threads.clear();  // joins
  if (failure) std::rethrow_exception(failure);
}

SampleVector allocateSamples(std::size_t n, std::pmr::memory_resource* memory) {
  if (memory && memory != std::pmr::new_delete_resource()) return SampleVector(n, memory);
  SampleVector samples;
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
