#pragma once
// A ChannelStream whose channels, frames and rate are known once it is open (an HDF5 or MAT
// dataset, and a child process's stream of one): what it says of its shape and progress, and the
// count of frames each read hands out, in one place. Its readers fill exactly the frames asked.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>

#include "siglab/io/channel_stream.hpp"

namespace siglab {

class KnownShapeChannelStream : public ChannelStream {
 public:
  std::size_t channels() const override { return channels_; }
  std::optional<std::uint64_t> knownFrames() const override { return frames_; }
  std::optional<double> sampleRate() const override { return rate_; }
  double fractionRead() const override {
    return frames_ == 0 ? 1.0 : static_cast<double>(next_) / static_cast<double>(frames_);
  }

 protected:
  KnownShapeChannelStream() = default;  // setShape before the first read
  KnownShapeChannelStream(std::size_t channels, std::uint64_t frames, std::optional<double> rate) {
    setShape(channels, frames, rate);
  }

  void setShape(std::size_t channels, std::uint64_t frames, std::optional<double> rate) {
    channels_ = channels;
    frames_ = frames;
    rate_ = rate;
  }
  std::uint64_t frames() const { return frames_; }
  std::uint64_t nextFrame() const { return next_; }  // the first frame the next read hands out

  // Fills frames nextFrame() .. nextFrame() + n - 1 (n >= 1, all within the stream) into `out`.
  virtual void fillFrames(std::span<const std::span<double>> out, std::size_t n) = 0;

  std::size_t readFrames(std::span<const std::span<double>> out) final {
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(out.front().size(), frames_ - next_));
    if (n > 0) fillFrames(out, n);
    next_ += n;
    return n;
  }

 private:
  std::size_t channels_ = 0;
  std::uint64_t frames_ = 0;
  std::optional<double> rate_;
  std::uint64_t next_ = 0;
};

}  // namespace siglab
