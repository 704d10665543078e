#include <algorithm>

#include "channel_readers.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"

namespace siglab {
namespace {

// Raw and .npy frames read with pread (as BinaryStream reads one channel), converted, and the
// channels kept copied out.
class BinaryChannelStream final : public ChannelStream {
 public:
  BinaryChannelStream(std::unique_ptr<FileBytes> file, std::string path, BinaryChannels shape, bool allowNonFinite,
                      std::optional<double> sampleRate)
      : file_(std::move(file)), path_(std::move(path)), shape_(std::move(shape)),
        frames_(shape_.layout.count / shape_.channels), allowNonFinite_(allowNonFinite), sampleRate_(sampleRate) {}

  std::size_t channels() const override { return shape_.keep.size(); }
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    const std::size_t wanted =
        out.empty() ? 0 : static_cast<std::size_t>(std::min<std::uint64_t>(out.front().size(), frames_ - next_));
    try {
      if (shape_.channelMajor) {
        for (std::size_t k = 0; k < shape_.keep.size(); ++k) {
          readSamples(shape_.keep[k] * frames_ + next_, out[k].first(wanted));
        }
      } else {
        readInterleaved(out, wanted);
      }
    } catch (const InputError&) {
      throwIfChangedAt(next_);
      throw;
    }
    next_ += wanted;
    if (wanted > 0 && next_ == frames_) throwIfChangedAt(next_ - wanted);
    return wanted;
  }
  std::optional<std::uint64_t> knownFrames() const override { return frames_; }
  std::optional<double> sampleRate() const override { return sampleRate_; }
  double fractionRead() const override {
    return frames_ == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(frames_);
  }

 private:
  // Samples [first, first + out.size()) of the file's data into `out`.
  void readSamples(std::uint64_t first, std::span<double> out) {
    if (out.empty()) return;
    const std::uint64_t at = shape_.layout.offset + first * sampleSize(shape_.layout.type);
    if (shape_.layout.type == SampleType::f64) {
      file_->readAt(at, std::as_writable_bytes(out));
      if (!allowNonFinite_) requireFinite(out, path_, first);
    } else {
      bytes_.resize(out.size() * sampleSize(shape_.layout.type));
      file_->readAt(at, bytes_);
      convertSamplesInto(bytes_, shape_.layout.type, out, first, path_, allowNonFinite_);
    }
  }

  void readInterleaved(std::span<const std::span<double>> out, std::size_t wanted) {
    const auto channels = static_cast<std::size_t>(shape_.channels);
    if (channels == 1) return readSamples(next_, out.front().first(wanted));
    const std::size_t blockFrames = std::max<std::size_t>(1, (std::size_t{1} << 16) / channels);
    for (std::size_t done = 0; done < wanted;) {
      const std::size_t n = std::min(blockFrames, wanted - done);
      block_.resize(n * channels);
      readSamples((next_ + done) * channels, block_);
      for (std::size_t k = 0; k < shape_.keep.size(); ++k) {
        double* to = out[k].data() + done;
        const double* from = block_.data() + shape_.keep[k];
        for (std::size_t f = 0; f < n; ++f) to[f] = from[f * channels];
      }
      done += n;
    }
  }

  // A file cut short or rewritten while streamed: said with the first frame of the read it spoiled.
  void throwIfChangedAt(std::uint64_t frame) const {
    try {
      file_->throwIfChanged();
    } catch (const InputError&) {
      throw InputError(path_, "the file changed while it was being read, at frame " + std::to_string(frame + 1) +
                                  " (another program is writing it): try again");
    }
  }

  std::unique_ptr<FileBytes> file_;
  std::string path_;
  BinaryChannels shape_;
  std::uint64_t frames_;
  bool allowNonFinite_;
  std::optional<double> sampleRate_;
  std::uint64_t next_ = 0;
  std::vector<std::byte> bytes_;
  std::vector<double> block_;
};

}  // namespace

std::unique_ptr<ChannelStream> openBinaryChannelStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                                       BinaryChannels shape, bool allowNonFinite,
                                                       std::optional<double> sampleRate) {
  return std::make_unique<BinaryChannelStream>(std::move(file), path, std::move(shape), allowNonFinite, sampleRate);
}

}  // namespace siglab
