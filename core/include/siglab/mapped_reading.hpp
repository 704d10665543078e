#pragma once
// Whole-signal passes over a MappedSignal with bounded resident memory: its statistics, and the
// options that read its mapped file again as a stream (for streamStatistics and streamFilter).
#include <cstddef>

#include "siglab/io/mapped_signal.hpp"
#include "siglab/progress.hpp"
#include "siglab/statistics.hpp"

namespace siglab {

// How to read signal.mappedPath() as a stream: `opened` (what the signal was opened with), its one
// channel only (oneChannel), for a file mapped as it is; raw float64 for a cache file.
ReadOptions mappedFileOptions(const MappedSignal& signal, const ReadOptions& opened);

// The statistics of `range` of the mapped samples, block by block with StatisticsAccumulator
// (statisticsParallel's bounds), each block's pages let go behind it: resident memory stays about
// one block whatever the range. Throws std::out_of_range as selectRange, Cancelled when cancelled.
Statistics mappedStatistics(const MappedSignal& signal, SampleRange range = {}, const Progress& progress = {},
                            std::size_t blockSamples = std::size_t{1} << 20);

}  // namespace siglab
