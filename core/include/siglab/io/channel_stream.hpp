#pragma once
// Signals of several channels read block by block with bounded memory (sample_stream.hpp's way):
// each block comes planar, one span a channel.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "siglab/io/signal_io.hpp"

namespace siglab {

/// A signal of several channels read block by block, planar.
class ChannelStream {
 public:
  virtual ~ChannelStream() = default;

  virtual std::size_t channels() const = 0;
  // Fills the next frames into `out` (one span a channel, all the same size: std::invalid_argument
  // otherwise) and returns how many; fewer only at the end, 0 once there is nothing left. Throws
  // InputError as readChannels does.
  std::size_t read(std::span<const std::span<double>> out);
  // The number of frames where the format says it up front (.npy, raw, WAV); nullopt for text.
  virtual std::optional<std::uint64_t> knownFrames() const = 0;
  // ReadOptions::sampleRate where given, else the file's own (WAV).
  virtual std::optional<double> sampleRate() const = 0;
  virtual double fractionRead() const = 0;  // 0..1, for progress
  // One name a channel where the file gives them (EDF labels, a CSV header's fields), else empty.
  virtual std::vector<std::string> channelNames() const { return {}; }
  // One physical unit a channel where the file gives them (EDF's physical dimensions), else empty.
  virtual std::vector<std::string> channelUnits() const { return {}; }

 protected:
  virtual std::size_t readFrames(std::span<const std::span<double>> out) = 0;  // `out` checked
};

// Opens `path` as readChannels would read it, without reading its samples yet; about
// `windowBytes` of the file (a window a column for CSV) are resident at a time.
std::unique_ptr<ChannelStream> openChannelStream(const std::string& path, const ReadOptions& options = {},
                                                 std::size_t windowBytes = std::size_t{32} << 20);

// How many channels readChannels would read of `path` with `options` (1 with oneChannel), without
// reading the samples. Throws InputError as openChannelStream does.
std::size_t channelCount(const std::string& path, const ReadOptions& options = {});

// The same with the channels' names and units where the file gives them (ChannelStream's
// channelNames, channelUnits: each empty or one a channel). Standard input and other streams are
// counted as channelCount counts them, without names.
struct ChannelsInFile {
  std::size_t count = 1;
  std::vector<std::string> names;
  std::vector<std::string> units;
};
ChannelsInFile channelsInFile(const std::string& path, const ReadOptions& options = {});

}  // namespace siglab
