#pragma once
// What the writers share: the one-channel rule of text, and the
// interleaved and CSV bytes of a block.
#include <span>
#include <string>

#include "siglab/io/atomic_file.hpp"
#include "siglab/io/signal_io.hpp"

namespace siglab {

// Text of several channels is CSV, one line a frame, in a file named .csv; the seed's format holds
// one channel: InputError naming `path` otherwise.
void requireTextHolds(const std::string& path, std::size_t channels);

// Frames of planar `channels` appended interleaved as little-endian f64 or f32 samples
// (std::invalid_argument for another type, as writeSignal).
void appendInterleaved(AtomicFileWriter& file, std::span<const std::span<const double>> channels, SampleType type,
                       const Progress& progress = {});

// Frames of planar `channels` appended as CSV lines, formatted on all cores and written in order.
void appendCsvLines(AtomicFileWriter& file, std::span<const std::span<const double>> channels, TextStyle style,
                    const Progress& progress = {});

}  // namespace siglab
