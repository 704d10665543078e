#include "rate_streams.hpp"

#include <algorithm>
#include <cstdint>

#include "siglab/job.hpp"

namespace siglab::detail {
namespace {

constexpr std::size_t kReadSamples = std::size_t{1} << 16;

}  // namespace

PolyphaseStream::PolyphaseStream(SampleStream& upstream, const Polyphase& fir, OutputCount outputs, bool float32,
                                 std::string name, Progress progress)
    : upstream_(upstream),
      fir_(fir),
      outputs_(std::move(outputs)),
      float32_(float32),
      name_(std::move(name)),
      progress_(std::move(progress)),
      mostPhaseTaps_((fir.tapCount() + static_cast<std::size_t>(fir.up()) - 1) / static_cast<std::size_t>(fir.up())) {}

std::optional<std::uint64_t> PolyphaseStream::knownSize() const {
  const std::optional<std::uint64_t> n = upstream_.knownSize();
  return n ? std::optional(outputs_(*n)) : std::nullopt;
}

std::optional<double> PolyphaseStream::sampleRate() const {
  const std::optional<double> rate = upstream_.sampleRate();
  if (!rate) return std::nullopt;
  return *rate * static_cast<double>(fir_.up()) / static_cast<double>(fir_.down());
}

bool PolyphaseStream::readMore() {
  if (ended_) return false;
  progress_.throwIfCancelled();
  // Drop the inputs no later output reads (the lowest an output from next_ on can reach).
  const std::int64_t keepFrom =
      std::max<std::int64_t>(base_, fir_.firstInput(next_) - static_cast<std::int64_t>(mostPhaseTaps_));
  if (keepFrom - base_ > static_cast<std::int64_t>(inputs_.size() / 2)) {
    inputs_.erase(inputs_.begin(), inputs_.begin() + (keepFrom - base_));
    base_ = keepFrom;
  }
  const std::size_t before = inputs_.size();
  inputs_.resize(before + kReadSamples);
  const std::size_t got = upstream_.read(std::span<double>(inputs_).subspan(before));
  inputs_.resize(before + got);
  if (float32_ && got > 0) {
    std::vector<float> narrow(got);
    narrowToFloat32Into(std::span<const double>(inputs_).subspan(before), narrow, name_, static_cast<std::uint64_t>(read_));
    std::copy(narrow.begin(), narrow.end(), inputs_.begin() + static_cast<std::ptrdiff_t>(before));
  }
  read_ += static_cast<std::int64_t>(got);
  if (got < kReadSamples) ended_ = true;
  return got > 0 || !ended_;
}

bool PolyphaseStream::nextExists() {
  for (;;) {
    if (next_ < static_cast<std::int64_t>(outputs_(static_cast<std::uint64_t>(read_)))) return true;
    if (ended_) return false;
    readMore();
  }
}

std::size_t PolyphaseStream::read(std::span<double> out) {
  std::size_t filled = 0;
  while (filled < out.size() && nextExists()) {
    // Every input the output reads must be here (or past the end).
    while (!ended_ && fir_.lastInput(next_, INT64_MAX) >= read_) readMore();
    const double y = fir_.outputAt(next_, inputs_.data(), base_, read_);
    out[filled++] = float32_ ? static_cast<double>(static_cast<float>(y)) : y;
    ++next_;
  }
  return filled;
}

KeepEveryStream::KeepEveryStream(std::unique_ptr<SampleStream> upstream, std::uint64_t q)
    : upstream_(std::move(upstream)), q_(q), block_(kReadSamples) {}

std::optional<std::uint64_t> KeepEveryStream::knownSize() const {
  const std::optional<std::uint64_t> n = upstream_->knownSize();
  return n ? std::optional((*n + q_ - 1) / q_) : std::nullopt;
}

std::optional<double> KeepEveryStream::sampleRate() const {
  const std::optional<double> rate = upstream_->sampleRate();
  return rate ? std::optional(*rate / static_cast<double>(q_)) : std::nullopt;
}

std::size_t KeepEveryStream::read(std::span<double> out) {
  std::size_t filled = 0;
  while (filled < out.size()) {
    // Read only as far as the outputs still wanted reach, so nothing read is lost between calls.
    const std::uint64_t firstKept = (position_ + q_ - 1) / q_ * q_;
    const std::uint64_t want = firstKept - position_ + (out.size() - filled - 1) * q_ + 1;
    const std::size_t got = upstream_->read(std::span<double>(block_).first(std::min<std::uint64_t>(want, block_.size())));
    for (std::size_t i = 0; i < got; ++i) {
      if ((position_ + i) % q_ == 0) out[filled++] = block_[i];
    }
    position_ += got;
    if (got == 0) break;
  }
  return filled;
}

}  // namespace siglab::detail
