#include <algorithm>

#include "channel_readers.hpp"
#include "parallel_work.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/channel_io.hpp"
#include "siglab/io/channel_stream.hpp"

namespace siglab {

Channels readChannels(const std::string& path, const ReadOptions& options, const Progress& progress) {
  const std::unique_ptr<ChannelStream> stream = openChannelStream(path, options);
  Channels result;
  result.sourcePath = path == "-" ? "standard input" : path;  // as readSignal names it
  std::vector<SampleVector>& channels = result.channels;
  constexpr std::size_t kBlockFrames = 1 << 16;
  const std::optional<std::uint64_t> known = stream->knownFrames();
  for (std::size_t c = 0; c < stream->channels(); ++c) {
    channels.push_back(known ? allocateSamples(static_cast<std::size_t>(*known), options.hostMemory)
                             : SampleVector(HostAllocator<double>(options.hostMemory)));
  }
  std::vector<std::span<double>> block(channels.size());
  for (std::size_t done = 0;;) {
    progress.throwIfCancelled();
    const std::size_t wanted = known ? std::min<std::size_t>(kBlockFrames, static_cast<std::size_t>(*known) - done)
                                     : kBlockFrames;
    if (wanted == 0) break;
    for (std::size_t c = 0; c < channels.size(); ++c) {
      if (!known) channels[c].resize(done + wanted);
      block[c] = std::span(channels[c]).subspan(done, wanted);
    }
    const std::size_t got = stream->read(block);
    done += got;
    progress.report(stream->fractionRead());
    if (got < wanted) {
      if (known) throw InputError(result.sourcePath, "the file changed while it was being read: try again");
      for (SampleVector& channel : channels) channel.resize(done);
      break;
    }
  }
  result.sampleRate = stream->sampleRate();
  result.names = stream->channelNames();
  result.units = stream->channelUnits();
  return result;
}

std::string channelLabel(std::size_t index, const std::vector<std::string>& names) {
  const std::string number = std::to_string(index + 1);
  const bool named = index < names.size() && !names[index].empty() && names[index] != number;  // EDF's "1", "2": no name
  return named ? number + " (" + names[index] + ")" : number;
}

Signal readWholeChannel(ChannelStream& in, const std::string& path, const ReadOptions& options, const Progress& progress) {
  Signal signal{allocateSamples(static_cast<std::size_t>(in.knownFrames().value_or(0)), options.hostMemory),
                in.sampleRate(), path};
  constexpr std::size_t kBlockFrames = 1 << 16;
  for (std::size_t done = 0;;) {
    progress.throwIfCancelled();
    if (!in.knownFrames()) signal.samples.resize(done + kBlockFrames);
    if (done == signal.samples.size()) break;
    const std::span<double> out[] = {std::span(signal.samples).subspan(done, std::min(kBlockFrames, signal.samples.size() - done))};
    const std::size_t got = in.read(out);
    done += got;
    progress.report(in.fractionRead());
    if (got < out[0].size()) {
      if (in.knownFrames()) throw InputError(path, "the file changed while it was being read: try again");
      signal.samples.resize(done);
      break;
    }
  }
  return signal;
}

}  // namespace siglab
