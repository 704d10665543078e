#pragma once
#include <cstddef>
#include <functional>
#include <memory_resource>
#include <string>
#include <vector>

#include "siglab/io/signal.hpp"

namespace siglab {

// Runs task(i) for every i in [0, count) on all cores, each index once; tasks may run in any
// order. The first exception a task throws stops the handing out of new tasks and is rethrown
// here once every thread has finished.
void runParallel(std::size_t count, const std::function<void(std::size_t)>& task);

// Makes pieces 0..count-1 on all cores (produce(i, buffer) fills a reused buffer) and hands them
// to consume(i, buffer) in order on the calling thread, with at most a few pieces a core in memory.
// An exception from either side stops the rest and is rethrown here.
void produceInParallelConsumeInOrder(std::size_t count, const std::function<void(std::size_t, std::string&)>& produce,
                                     const std::function<void(std::size_t, const std::string&)>& consume);

// n doubles from `memory` (nullptr: ordinary memory, backed by huge pages where the kernel allows
// it: fewer page faults when a large signal is first written). One allocation, never grown.
SampleVector allocateSamples(std::size_t n, std::pmr::memory_resource* memory = nullptr);

}  // namespace siglab
