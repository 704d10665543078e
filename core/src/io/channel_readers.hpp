#pragma once
// The ChannelStream of each format, for openChannelStream.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "binary_layout.hpp"
#include "file_bytes.hpp"
#include "siglab/io/channel_stream.hpp"
#include "siglab/io/sample_stream.hpp"

namespace siglab {

// Samples of `channels` channels from `layout`: interleaved frame by frame, or (channelMajor: a
// Fortran-order .npy) channel after channel. Only the 0-based `keep` channels are read, in order.
struct BinaryChannels {
  BinaryLayout layout;
  std::uint64_t channels = 1;
  bool channelMajor = false;
  std::vector<std::size_t> keep;
};
std::unique_ptr<ChannelStream> openBinaryChannelStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                                       BinaryChannels shape, bool allowNonFinite,
                                                       std::optional<double> sampleRate);

// ReadOptions::channel of what openChannelStream reads, for openSampleStream where the options
// name a layout of several channels (rawChannels, columns).
std::unique_ptr<SampleStream> openOneChannelStream(const std::string& path, const ReadOptions& options,
                                                   std::size_t windowBytes);

}  // namespace siglab
