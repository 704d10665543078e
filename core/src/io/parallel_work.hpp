#pragma once
#include <cstddef>
#include <functional>
#include <vector>

#include "siglab/progress.hpp"

namespace siglab {

// Runs task(i) for every i in [0, count) on all cores, each index once; tasks may run in any
// order. The first exception a task throws stops the handing out of new tasks and is rethrown
// here once every thread has finished.
void runParallel(std::size_t count, const std::function<void(std::size_t)>& task);

// A slice [from, to] of another progress: report(f) reports from + f * (to - from).
Progress progressSlice(const Progress& whole, double from, double to);

// A vector of n doubles, backed by huge pages where the kernel allows it (fewer page faults when
// a large signal is first written).
std::vector<double> allocateSamples(std::size_t n);

}  // namespace siglab
