#pragma once
// Signals of several channels written block by block: the bytes writeChannels writes for the same
// channels, appearing at commit() only (sample_sink.hpp's promise).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "siglab/io/signal_io.hpp"

namespace siglab {

/// A signal of several channels written block by block; its file appears only at commit().
class ChannelSink {
 public:
  virtual ~ChannelSink() = default;  // without commit(): nothing is left behind, the old file stays
  virtual std::size_t channels() const = 0;
  // The next frames, planar: one span a channel, all the same size (std::invalid_argument otherwise).
  void write(std::span<const std::span<const double>> block);
  virtual void commit() = 0;

 protected:
  virtual void writeFrames(std::span<const std::span<const double>> block) = 0;  // `block` checked
};

// A sink of `channels` channels for `path` in the format `options` (or its extension) names; text
// of one number a line (not .csv) refuses more than one with an InputError naming the file.
// `knownFrames`, where the input says it, lets .npy write its header first.
std::unique_ptr<ChannelSink> openChannelSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                             std::optional<std::uint64_t> knownFrames = std::nullopt);

}  // namespace siglab
