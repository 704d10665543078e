#pragma once
// The ChannelStream of each format, for openChannelStream.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
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

// The 0-based channels to read of `count` a file has: all (at most 1024), or ReadOptions::channel
// alone with oneChannel (InputError naming the file and its channels where it lacks that one).
std::vector<std::size_t> channelsToKeep(const ReadOptions& options, std::uint64_t count, const std::string& path);

// Channels each read through its own SampleStream, frame counts checked to agree.
std::unique_ptr<ChannelStream> openColumnStreams(std::vector<std::unique_ptr<SampleStream>> columns,
                                                 const std::string& path, std::optional<double> sampleRate);

// The columns of a text file readChannels reads (text_columns.hpp), a text stream each; with a
// time column (time_column.hpp), the others at the rate its stamps give or resampled.
std::unique_ptr<ChannelStream> openTextColumns(const FileBytes& file, const std::string& pathGiven,
                                               const std::string& path, const ReadOptions& options,
                                               std::size_t windowBytes);

// The same without looking for a time column (ReadOptions::columns and sampleRate as given).
std::unique_ptr<ChannelStream> openPlainTextColumns(const FileBytes& file, const std::string& pathGiven,
                                                    const std::string& path, const ReadOptions& options,
                                                    std::size_t windowBytes);
// Those of a file whose column `timeColumn` (1-based) holds time stamps.
std::unique_ptr<ChannelStream> openTimedTextColumns(const FileBytes& file, const std::string& pathGiven,
                                                    const std::string& path, const ReadOptions& options,
                                                    std::size_t timeColumn, std::size_t windowBytes);
// The header's names of 1-based `columns` (0: the whole line) where options.skipHeader skips one, else empty.
std::vector<std::string> textHeaderNames(std::string_view text, const ReadOptions& options,
                                         std::span<const std::size_t> columns);

// ReadOptions::timeColumn of a column read on its own, where no time column is looked for.
inline constexpr std::size_t kNoTimeColumn = SIZE_MAX;

// Whether one channel is picked out of what openChannelStream reads: the options name a layout of
// several channels (rawChannels, columns) or oneChannel (a 2-D .npy's, a CSV's, a WAV's channel).
// readSignal, openSampleStream and readSignalTail read through the channel readers then.
inline bool picksOneOfSeveral(const ReadOptions& options) {
  return options.rawChannels != 1 || !options.columns.empty() || options.oneChannel ||
         (options.timeColumn > 0 && options.timeColumn != kNoTimeColumn) || options.resampleTo.has_value();
}

// The same, or an HDF5/MAT file (dataset_formats.hpp): what goes through openChannelStream.
bool readsThroughChannels(const std::string& path, const ReadOptions& options);

// ReadOptions::channel of what openChannelStream reads, for openSampleStream where
// picksOneOfSeveral.
std::unique_ptr<SampleStream> openOneChannelStream(const std::string& path, const ReadOptions& options,
                                                   std::size_t windowBytes);

// The one channel of `in` read whole into a Signal named `path` (progress and cancellation as readSignal's).
Signal readWholeChannel(ChannelStream& in, const std::string& path, const ReadOptions& options, const Progress& progress);

// A ChannelStream of one channel, read as a SampleStream.
std::unique_ptr<SampleStream> oneChannelAsSamples(std::unique_ptr<ChannelStream> in);

}  // namespace siglab
