#pragma once
// Signals of several channels in memory: every channel of a WAV, a 2-D .npy (N x C), raw frames of
// interleaved channels, the numeric columns of a CSV. One channel reads and writes as signal_io.hpp's.
#include <span>
#include <string>
#include <vector>

#include "siglab/io/atomic_file.hpp"
#include "siglab/io/channels.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/progress.hpp"

namespace siglab {

// Reads the channels the options choose (ReadOptions: columns, rawChannels, oneChannel) with
// readSignal's formats, checks and messages; a channel or column the file lacks is an InputError
// naming the file and the channels it has. Text with one number a line is one channel.
Channels readChannels(const std::string& path, const ReadOptions& options = {}, const Progress& progress = {});

// Writes planar `channels` (each the same length; std::invalid_argument otherwise) to `path`
// atomically as writeSignal does: WAV with C channels, .npy N x C (1-D for one channel), raw
// interleaved, .csv one line a frame with ',' between channels. Other text holds one channel only
// (InputError naming the file otherwise). One channel gives writeSignal's bytes.
void writeChannels(const std::string& path, std::span<const std::span<const double>> channels,
                   const WriteOptions& options = {}, const Progress& progress = {});

// The same into `file` (not committed), for an OutputSet; the format follows file.path().
void appendChannels(AtomicFileWriter& file, std::span<const std::span<const double>> channels,
                    const WriteOptions& options = {}, const Progress& progress = {});

// Refuses, before any work, an output that cannot hold `channels` channels (text of one number a
// line holds one): InputError naming `path` and the formats that hold them.
void checkOutputHoldsChannels(const std::string& path, const WriteOptions& options, std::size_t channels);

// Spans over `channels`, as the writers take them.
std::vector<std::span<const double>> channelSpans(const Channels& channels);

}  // namespace siglab
