// A ChannelStream whose file a child process reads (an untrusted HDF5 dataset through libhdf5):
// the child opens it, says its shape and rate, then sends its frames up a pipe a block at a time,
// planar; the pipe's buffer bounds how far it reads ahead. The parent trusts nothing it is sent:
// counts, the rate and finiteness are checked here.
#include <algorithm>
#include <cstring>

#include "child_process.hpp"
#include "dataset_formats.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/sample_rate.hpp"

namespace siglab {
namespace {

constexpr std::size_t kBlockSamples = std::size_t{1} << 20;  // 8 MiB of float64 a block
constexpr std::uint64_t kMaxChannels = 1024;                 // datasetChannelsToKeep's limit

std::size_t blockFrames(std::size_t channels) { return std::max<std::size_t>(1, kBlockSamples / std::max<std::size_t>(1, channels)); }

// In the child: `stream`'s shape and rate, then all its frames, a block at a time.
void sendStream(int out, ChannelStream& stream, const std::string& where) {
  const std::size_t channels = stream.channels();
  const std::optional<std::uint64_t> frames = stream.knownFrames();
  const std::optional<double> rate = stream.sampleRate();
  std::uint64_t rateBits = 0;
  if (rate) std::memcpy(&rateBits, &*rate, sizeof rateBits);
  detail::writeToParent(out, &detail::kDescription, 1);
  detail::writeTextToParent(out, where);
  detail::writeNumberToParent(out, frames.value_or(0));
  detail::writeNumberToParent(out, channels);
  detail::writeNumberToParent(out, rate ? 1 : 0);
  detail::writeNumberToParent(out, rateBits);
  const std::size_t frameCount = blockFrames(channels);
  std::vector<double> block(frameCount * channels);
  std::vector<std::span<double>> planar(channels);
  for (std::size_t c = 0; c < channels; ++c) planar[c] = std::span(block).subspan(c * frameCount, frameCount);
  for (;;) {
    const std::size_t n = stream.read(planar);
    if (n == 0) return;
    detail::writeToParent(out, &detail::kSamples, 1);
    detail::writeNumberToParent(out, n);
    for (const std::span<double> channel : planar) detail::writeToParent(out, channel.data(), n * sizeof(double));
  }
}

class ChildChannelStream final : public ChannelStream {
 public:
  ChildChannelStream(std::unique_ptr<detail::ChildProcess> child, bool allowNonFinite)
      : child_(std::move(child)), where_(child_->path()), allowNonFinite_(allowNonFinite) {
    receiveShape();
    if (frames_ == 0) finish();
  }

  std::size_t channels() const override { return channels_; }
  std::optional<std::uint64_t> knownFrames() const override { return frames_; }
  std::optional<double> sampleRate() const override { return rate_; }
  double fractionRead() const override {
    return frames_ == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(frames_);
  }

 protected:
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    if (broken_) throw InputError(where_, "an earlier read of it did not finish (cancelled or failed)");
    broken_ = true;  // until this read is whole: the pipe is out of step after an exception
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(out.front().size(), frames_ - next_));
    for (std::size_t done = 0; done < n;) {
      if (heldAt_ < heldFrames_) {
        const std::size_t take = std::min(n - done, heldFrames_ - heldAt_);
        for (std::size_t c = 0; c < channels_; ++c) {
          std::memcpy(out[c].data() + done, held_.data() + c * heldFrames_ + heldAt_, take * sizeof(double));
        }
        heldAt_ += take;
        done += take;
        continue;
      }
      const std::size_t count = receiveBlockFrames();
      if (count <= n - done) {  // straight into the caller's spans
        for (std::size_t c = 0; c < channels_; ++c) receiveSamples(out[c].subspan(done, count));
        done += count;
      } else {
        held_.resize(count * channels_);
        for (std::size_t c = 0; c < channels_; ++c) receiveSamples(std::span(held_).subspan(c * count, count));
        heldFrames_ = count;
        heldAt_ = 0;
      }
      received_ += count;
      if (received_ == frames_) finish();
    }
    next_ += n;
    broken_ = false;
    return n;
  }

 private:
  [[noreturn]] void damaged() { child_->finish('?'); throw InputError(where_, "damaged"); }

  void receiveShape() {
    const std::optional<char> kind = child_->readKind();
    if (kind != detail::kDescription) child_->finish(kind);  // throws: the child's refusal, or how it ended
    const std::optional<std::string> where = child_->readText();
    const std::optional<std::uint64_t> frames = child_->readNumber();
    const std::optional<std::uint64_t> channels = child_->readNumber();  // what the child sends for each frame
    const std::optional<std::uint64_t> hasRate = child_->readNumber();
    const std::optional<std::uint64_t> rateBits = child_->readNumber();
    if (!where || !frames || !channels || !hasRate || !rateBits) child_->finish(std::nullopt);
    if (!where->starts_with(where_) || *channels == 0 || *channels > kMaxChannels || *hasRate > 1) damaged();
    where_ = *where;
    frames_ = *frames;
    channels_ = static_cast<std::size_t>(*channels);
    if (*hasRate) {
      double rate = 0;
      std::memcpy(&rate, &*rateBits, sizeof rate);
      if (!isValidSampleRate(rate)) damaged();
      rate_ = rate;
    }
  }

  // The next block's frames: at least one, no more than the dataset has left.
  std::size_t receiveBlockFrames() {
    child_->restartClock(detail::childTimeLimit(kBlockSamples * sizeof(double)));
    const std::optional<char> kind = child_->readKind();
    if (kind != detail::kSamples) {
      child_->finish(kind);  // throws, unless the child says it is done
      throw InputError(where_, "holds " + std::to_string(received_) + " frames, fewer than its header's " +
                                   std::to_string(frames_) + " (the file is damaged)");
    }
    const std::optional<std::uint64_t> count = child_->readNumber();
    if (!count) child_->finish(std::nullopt);
    if (*count == 0 || *count > frames_ - received_ || *count > blockFrames(channels_)) damaged();
    return static_cast<std::size_t>(*count);
  }

  void receiveSamples(std::span<double> into) {
    if (!child_->read(into.data(), into.size_bytes())) child_->finish(std::nullopt);
    if (!allowNonFinite_) requireFinite(into, where_, received_);
  }

  // After the last frame: the child's word that it is done, and its end.
  void finish() { child_->finish(child_->readKind()); }

  std::unique_ptr<detail::ChildProcess> child_;
  std::string where_;
  bool allowNonFinite_;
  std::uint64_t frames_ = 0;
  std::size_t channels_ = 0;
  std::optional<double> rate_;
  std::uint64_t received_ = 0;  // frames come up the pipe
  std::uint64_t next_ = 0;      // frames handed to the caller
  std::vector<double> held_;    // a block larger than the caller asked for, planar
  std::size_t heldFrames_ = 0;
  std::size_t heldAt_ = 0;
  bool broken_ = false;
};

}  // namespace

std::unique_ptr<ChannelStream> openChannelStreamInChild(
    const std::string& path, const char* library, const ReadOptions& options,
    const std::function<NamedChannelStream(const ReadOptions&)>& open) {
  auto child = std::make_unique<detail::ChildProcess>(path, library, detail::childTimeLimit());
  ReadOptions inChild = options;
  inChild.allowNonFinite = true;  // checked here, where the samples arrive
  const bool started = !detail::childProcessesOff() && child->start([&](int out) {
    const NamedChannelStream opened = open(inChild);
    sendStream(out, *opened.stream, opened.where);
  });
  if (!started) return open(options).stream;  // no child: read here, as before
  return std::make_unique<ChildChannelStream>(std::move(child), options.allowNonFinite);
}

}  // namespace siglab
