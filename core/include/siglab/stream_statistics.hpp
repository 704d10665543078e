#pragma once
#include <string>
#include <vector>

#include "siglab/io/sample_stream.hpp"
#include "siglab/progress.hpp"
#include "siglab/statistics.hpp"

namespace siglab {

// The statistics of `range` of a streamed signal in one pass with bounded memory (blocks of
// `blockSamples`), with statisticsParallel's bounds. Throws std::out_of_range as selectRange does
// when the range does not fit the signal, Cancelled when cancelled, InputError as the readers do.
Statistics streamStatistics(SampleStream& in, SampleRange range = {}, const Progress& progress = {},
                            std::size_t blockSamples = std::size_t{1} << 20);

// The same for the signal in `path`, opened as openSampleStream does: a stream (a pipe, a FIFO,
// standard input) is read only up to the range's end, so an endless one ends there too.
Statistics streamStatistics(const std::string& path, const ReadOptions& options, SampleRange range = {},
                            const Progress& progress = {});

// The statistics of every channel readChannels reads of `path` (channel_stream.hpp's
// channelsInFile), one after the other, each as above with bounded memory: one pass a channel; with
// the channels' names where the file gives them (for channelLabel).
struct ChannelStatistics {
  std::vector<Statistics> each;
  std::vector<std::string> names;
};
ChannelStatistics streamChannelStatistics(const std::string& path, const ReadOptions& options,
                                                SampleRange range = {}, const Progress& progress = {});

}  // namespace siglab
