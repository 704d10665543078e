#include "siglab/io/channel_sink.hpp"

#include <cstdint>
#include <stdexcept>

#include "planar_frames.hpp"
#include "dataset_formats.hpp"
#include "signal_format.hpp"

namespace siglab {

void ChannelSink::write(std::span<const std::span<const double>> block) {
  if (block.size() != channels()) {
    throw std::invalid_argument("ChannelSink::write: " + std::to_string(channels()) + " channels expected, not " +
                                std::to_string(block.size()));
  }
  commonFrames(block, "ChannelSink::write");
  writeFrames(block);
}

std::unique_ptr<ChannelSink> openChannelSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                             std::optional<std::uint64_t> knownFrames) {
  if (channels == 0) throw std::invalid_argument("openChannelSink: no channels");
  if (auto dataset = openDatasetSink(path, options, channels)) return dataset;  // FILE.h5:NAME, FILE.mat:NAME
  return outputFormat(path, options).openSink(path, options, channels, knownFrames);
}

}  // namespace siglab
