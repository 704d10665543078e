#include "sndfile_streams.hpp"

#include "channel_readers.hpp"
#include "planar_frames.hpp"
#include "siglab/errors.hpp"
#include "parallel_work.hpp"
#include "sndfile_reader.hpp"
#include <cstdint>

namespace siglab {
namespace {

// The kept channels of libsndfile's interleaved frames, made planar.
class SndfileChannels final : public ChannelStream {
 public:
  // `bytes` are file's: taken before the file is handed on.
  SndfileChannels(Bytes bytes, std::unique_ptr<FileBytes> file, const std::string& path, const std::string& what,
                  const ReadOptions& options)
      : reader_(bytes, std::move(file), path, what, options.allowNonFinite),
        keep_(channelsToKeep(options, reader_.channels(), path)), sampleRate_(options.sampleRate) {}

  std::size_t channels() const override { return keep_.size(); }
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    const std::size_t all = reader_.channels();
    const std::size_t wanted = out.front().size();
    const std::size_t blockFrames = std::max<std::size_t>(1, (std::size_t{1} << 16) / all);
    std::size_t done = 0;
    while (done < wanted) {
      block_.resize(std::min(blockFrames, wanted - done) * all);
      const std::size_t got = reader_.readInterleaved(block_);
      for (std::size_t k = 0; k < keep_.size(); ++k) {
        double* to = out[k].data() + done;
        const double* from = block_.data() + keep_[k];
        for (std::size_t f = 0; f < got; ++f) to[f] = from[f * all];
      }
      done += got;
      if (got < block_.size() / all) break;
    }
    return done;
  }
  std::optional<std::uint64_t> knownFrames() const override { return reader_.frames(); }
  std::optional<double> sampleRate() const override { return sampleRate_ ? sampleRate_ : reader_.sampleRate(); }
  double fractionRead() const override { return reader_.fractionRead(); }

  SndfileReader& reader() { return reader_; }

 private:
  SndfileReader reader_;
  std::vector<std::size_t> keep_;
  std::optional<double> sampleRate_;
  std::vector<double> block_;
};

ReadOptions oneChannel(const ReadOptions& options) {
  ReadOptions one = options;
  one.oneChannel = true;
  return one;
}

}  // namespace

std::unique_ptr<ChannelStream> openSndfileChannels(std::unique_ptr<FileBytes> file, const std::string& path,
                                                   const std::string& what, const ReadOptions& options) {
  const Bytes bytes = file->bytes();
  return std::make_unique<SndfileChannels>(bytes, std::move(file), path, what, options);
}

std::unique_ptr<SampleStream> openSndfileSamples(std::unique_ptr<FileBytes> file, const std::string& path,
                                                 const std::string& what, const ReadOptions& options) {
  const Bytes bytes = file->bytes();
  return oneChannelAsSamples(std::make_unique<SndfileChannels>(bytes, std::move(file), path, what, oneChannel(options)));
}

Signal readSndfileSignal(const FileBytes& file, const std::string& path, const std::string& what,
                         const ReadOptions& options, const Progress& progress) {
  SndfileReader reader(file.bytes(), nullptr, path, what, options.allowNonFinite);
  const std::size_t channel = options.channel;
  if (channel < 1 || channel > reader.channels()) throw missingChannel(path, channel, reader.channels());
  const std::size_t all = reader.channels();
  SampleVector samples = allocateSamples(static_cast<std::size_t>(reader.frames().value_or(0)), options.hostMemory);
  std::vector<double> block(std::max<std::size_t>(1, (std::size_t{1} << 16) / all) * all);
  std::size_t done = 0;
  while (const std::size_t got = reader.readInterleaved(block)) {
    progress.throwIfCancelled();
    if (samples.size() < done + got) samples.resize(done + got);
    for (std::size_t f = 0; f < got; ++f) samples[done + f] = block[f * all + channel - 1];
    done += got;
    progress.report(reader.fractionRead());
  }
  samples.resize(done);
  if (done == 0) throw InputError(path, what + " file: it holds no samples");
  return Signal{std::move(samples), reader.sampleRate(), path};
}

std::vector<double> readSndfileTail(const FileBytes& file, const std::string& path, const std::string& what,
                                    const ReadOptions& options, std::size_t count) {
  try {
    SndfileReader reader(file.bytes(), nullptr, path, what, true);
    const std::size_t all = reader.channels();
    const std::size_t channel = options.channel;
    if (!reader.frames() || channel < 1 || channel > all) return {};
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(count, *reader.frames()));
    reader.seek(*reader.frames() - n);
    std::vector<double> frames(n * all), values(n);
    if (reader.readInterleaved(frames) != n) return {};
    for (std::size_t f = 0; f < n; ++f) values[f] = frames[f * all + channel - 1];
    return values;
  } catch (const InputError&) {
    return {};
  }
}

}  // namespace siglab
