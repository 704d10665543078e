#include "siglab/stream_statistics.hpp"

#include "siglab/io/channel_stream.hpp"
#include "siglab/work_progress.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace siglab {

Statistics streamStatistics(SampleStream& in, SampleRange range, const Progress& progress, std::size_t blockSamples) {
  StatisticsAccumulator accumulator(range.begin);
  std::vector<double> block(std::max<std::size_t>(blockSamples, 1));
  std::uint64_t position = 0;  // index of block[0] in the signal
  // Never more than the range needs: a stream's reader reads no further than asked.
  const auto wanted = [&] {
    const std::uint64_t left = range.end - position;
    return std::span(block).first(static_cast<std::size_t>(std::min<std::uint64_t>(block.size(), left)));
  };
  while (const std::size_t n = in.read(wanted())) {
    progress.throwIfCancelled();
    const std::uint64_t begin = std::max<std::uint64_t>(range.begin, position);
    const std::uint64_t end = std::min<std::uint64_t>(range.end, position + n);
    if (begin < end) accumulator.add(std::span(block).subspan(begin - position, end - begin));
    position += n;
    progress.report(in.fractionRead());
    if (position >= range.end) break;  // the rest of the file is not needed
  }
  // The same checks, and messages, as selectRange on the whole signal.
  const std::uint64_t size = position;
  if (range.end != SampleRange{}.end && range.end > size) {
    throw std::out_of_range("range end " + std::to_string(range.end) + " is past the signal's " +
                            std::to_string(size) + " samples");
  }
  const std::uint64_t end = std::min<std::uint64_t>(range.end, size);
  if (range.begin > end) {
    throw std::out_of_range("range start " + std::to_string(range.begin) + " is after its end " + std::to_string(end));
  }
  return accumulator.result();
}

Statistics streamStatistics(const std::string& path, const ReadOptions& options, SampleRange range,
                            const Progress& progress) {
  const auto in = openSampleStream(path, options, std::size_t{32} << 20, range.end);
  return streamStatistics(*in, range, progress);
}

ChannelStatistics streamChannelStatistics(const std::string& path, const ReadOptions& options, SampleRange range,
                                          const Progress& progress) {
  // A stream (standard input, a pipe) stays one channel read up to the range's end: counting its
  // channels would read it to its end, and an endless one has none.
  std::error_code ignored;
  const bool file = path != "-" && std::filesystem::is_regular_file(path, ignored);
  const ChannelsInFile layout = file ? channelsInFile(path, options) : ChannelsInFile{};
  if (layout.count == 1) return {{streamStatistics(path, options, range, progress)}, layout.names};
  ChannelStatistics all{{}, layout.names};
  for (std::size_t c = 0; c < layout.count; ++c) {
    ReadOptions one = options;
    one.oneChannel = true;
    one.channel = c + 1;
    const double share = 1.0 / static_cast<double>(layout.count);
    all.each.push_back(streamStatistics(path, one, range,
                                        progressPart(progress, share * static_cast<double>(c), share * static_cast<double>(c + 1))));
  }
  return all;
}

}  // namespace siglab
