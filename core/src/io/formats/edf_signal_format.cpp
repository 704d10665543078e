// EDF and EDF+ (biomedical recordings), read and written by SigLab itself (edf_header.cpp,
// edf_records.cpp): the signals of one rate as channels (--signals by label or number), physical
// values as the header scales them, EDF+ annotations skipped. Written as 16-bit integers.
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>

#include "../channel_readers.hpp"
#include "../edf_records.hpp"
#include "../planar_frames.hpp"
#include "../signal_format.hpp"
#include "../parallel_work.hpp"
#include "../spool_file.hpp"
#include "siglab/errors.hpp"

namespace siglab {
namespace {

// Every sample is needed before the header can say each channel's range: the frames wait in an
// unlinked temporary file (float64, frame by frame) until commit() writes the EDF file.
class EdfSink final : public ChannelSink {
 public:
  EdfSink(const std::string& path, const WriteOptions& options, std::size_t channels)
      : out_(path, options.durability, DirectOutput::spooled), rate_(options.sampleRate), channels_(channels),
        fields_(edfLabels(channels, options.channelNames, options.channelUnits)),
        low_(channels, std::numeric_limits<double>::infinity()), high_(channels, -std::numeric_limits<double>::infinity()) {
    planEdfRecords(rate_, 0, path);  // refuses a rate EDF cannot hold before any work
    detail::SpoolFile spool = detail::openSpoolFile();
    if (spool.fd < 0) throw InputError(path, "cannot write EDF: no temporary file in " + spool.folder + ": " + spool.error);
    spool_ = spool.fd;
  }
  ~EdfSink() override { ::close(spool_); }

  std::size_t channels() const override { return channels_; }
  void writeFrames(std::span<const std::span<const double>> block) override {
    const std::size_t frames = block.front().size();
    for (std::size_t c = 0; c < channels_; ++c) {
      for (std::size_t f = 0; f < frames; ++f) {
        const double v = block[c][f];
        if (!std::isfinite(v)) {
          throw InputError(out_.path(), "cannot write EDF: sample " + std::to_string(frames_ + f + 1) + " of channel " +
                                            std::to_string(c + 1) + " is not a finite number");
        }
        low_[c] = std::min(low_[c], v);
        high_[c] = std::max(high_[c], v);
      }
    }
    interleaved_.resize(frames * channels_);
    interleaveFrames(block, 0, frames, interleaved_.data());
    spoolIo(::pwrite, interleaved_.data(), frames, frames_, "write");
    frames_ += frames;
  }
  void commit() override {
    for (std::size_t c = 0; c < channels_; ++c) {
      if (frames_ == 0) low_[c] = high_[c] = 0.0;
    }
    writeEdf(out_, rate_, frames_, low_, high_, fields_, [this](std::uint64_t first, std::span<const std::span<double>> block) {
      const std::size_t frames = block.front().size();
      interleaved_.resize(frames * channels_);
      spoolIo(::pread, interleaved_.data(), frames, first, "read");
      deinterleaveFrames(interleaved_.data(), frames, block);
    });
    out_.commit();
  }

 private:
  template <class Io, class Buffer>
  void spoolIo(Io io, Buffer* data, std::size_t frames, std::uint64_t firstFrame, const char* what) {
    const std::size_t bytes = frames * channels_ * sizeof(double);
    const auto offset = static_cast<off_t>(firstFrame * channels_ * sizeof(double));
    std::size_t done = 0;
    while (done < bytes) {
      const ssize_t n = io(spool_, reinterpret_cast<char*>(data) + done, bytes - done, offset + static_cast<off_t>(done));
      if (n <= 0) {
        if (n < 0 && errno == EINTR) continue;
        throw InputError(out_.path(), std::string("cannot write EDF: temporary file ") + what + " failed: " +
                                          (n < 0 ? std::strerror(errno) : "it ended early"));
      }
      done += static_cast<std::size_t>(n);
    }
  }

  AtomicFileWriter out_;
  double rate_;
  std::size_t channels_;
  EdfLabels fields_;
  int spool_ = -1;
  std::uint64_t frames_ = 0;
  std::vector<double> low_, high_;
  std::vector<double> interleaved_;
};

class EdfFormat final : public SignalFormat {
 public:
  std::string_view name() const override { return "edf"; }
  std::string_view description() const override { return "EDF"; }
  std::vector<std::string_view> extensions() const override { return {".edf"}; }
  bool holdsChannels() const override { return true; }
  bool hasRate() const override { return true; }
  std::string saveFilter(std::size_t channels) const override {
    return SignalFormat::saveFilter(channels).replace(0, description().size(), "EDF, 16-bit");
  }
  bool recognises(Bytes head) const override { return looksLikeEdf(head); }

  Signal read(const FileBytes& file, const std::string& path, const ReadOptions& options,
              const Progress& progress) const override {
    ReadOptions one = options;
    one.oneChannel = true;
    const std::unique_ptr<ChannelStream> stream = openEdfChannelStream(file, nullptr, path, one, kWindowBytes);
    return readWholeChannel(*stream, path, options, progress);
  }
  std::unique_ptr<SampleStream> openSamples(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                            const ReadOptions& options) const override {
    ReadOptions one = options;
    one.oneChannel = true;
    return oneChannelAsSamples(openChannels(std::move(file), source, one));
  }
  std::unique_ptr<ChannelStream> openChannels(std::unique_ptr<FileBytes> file, const StreamSource& source,
                                              const ReadOptions& options) const override {
    const FileBytes& bytes = *file;
    return openEdfChannelStream(bytes, std::move(file), source.path, options, source.windowBytes);
  }

  bool writes() const override { return true; }
  std::string writeNote(const WriteOptions& options) const override {
    const std::string fields = edfLabels(options.channelNames.size(), options.channelNames, options.channelUnits).note;
    return "EDF holds 16-bit integers: each channel is quantised to 65536 steps between its minimum and maximum" +
           (fields.empty() ? "" : "; " + fields);
  }
  void checkChannels(const std::string& path, std::size_t channels) const override {
    if (channels > 4096) throw InputError(path, "EDF holds at most 4096 signals, not " + std::to_string(channels));
  }
  std::unique_ptr<ChannelSink> openSink(const std::string& path, const WriteOptions& options, std::size_t channels,
                                        std::optional<std::uint64_t>) const override {
    checkHolds(path, channels, options);
    return std::make_unique<EdfSink>(path, options, channels);
  }
  void append(AtomicFileWriter& file, std::span<const std::span<const double>> channels, const WriteOptions& options,
              const Progress& progress) const override {
    checkHolds(file.path(), channels.size(), options);
    const std::size_t frames = channels.front().size();
    std::vector<double> low(channels.size(), 0.0), high(channels.size(), 0.0);
    for (std::size_t c = 0; c < channels.size(); ++c) {
      for (std::size_t f = 0; f < frames; ++f) {
        if (!std::isfinite(channels[c][f])) {
          throw InputError(file.path(), "cannot write EDF: sample " + std::to_string(f + 1) + " of channel " +
                                            std::to_string(c + 1) + " is not a finite number");
        }
      }
      if (frames == 0) continue;
      const auto [lo, hi] = std::minmax_element(channels[c].begin(), channels[c].end());
      low[c] = *lo;
      high[c] = *hi;
    }
    writeEdf(file, options.sampleRate, frames, low, high, edfLabels(channels.size(), options.channelNames, options.channelUnits), [&](std::uint64_t first, std::span<const std::span<double>> block) {
      progress.throwIfCancelled();
      for (std::size_t c = 0; c < channels.size(); ++c) {
        std::copy_n(channels[c].begin() + static_cast<std::ptrdiff_t>(first), block[c].size(), block[c].begin());
      }
      if (frames > 0) progress.report(static_cast<double>(first) / static_cast<double>(frames));
    });
  }

 private:
  static constexpr std::size_t kWindowBytes = std::size_t{32} << 20;
};

}  // namespace

const SignalFormat& edfFormat() {
  static const EdfFormat format;
  return format;
}

}  // namespace siglab
