#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "siglab/io/channel_sink.hpp"

namespace siglab {

// Raw little-endian f64 or f32 samples, frames interleaved, or (npy) .npy f64 behind a header of
// N (one channel) or N x C that is fixed up at commit when N was not known: the header of
// writeSignal is 128 bytes for every count, so it fits in place.
std::unique_ptr<ChannelSink> openBinarySink(const std::string& path, SampleType type, bool npy, std::size_t channels,
                                            std::optional<std::uint64_t> knownFrames, Durability durability);

}  // namespace siglab
