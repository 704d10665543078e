#include "sections_stream.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "handed_outputs.hpp"
#include "io/spool_file.hpp"
#include "siglab/errors.hpp"
#include "siglab/job.hpp"
#include "siglab/work_progress.hpp"
#include "sos_step.hpp"

namespace siglab::detail {
namespace {

// The most samples a block holds here: the recursion's bits do not depend on the block, so a block
// of --stream-block 2^30 need not cost 8 GiB.
constexpr std::size_t kMostBlockSamples = std::size_t{1} << 20;

double maxAbsOf(const std::vector<double>& v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

double millisecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

SectionsStream::SectionsStream(SampleStream& upstream, const FilterSpec& spec, SampleType type, std::string name,
                               std::size_t blockSamples, Progress progress, bool blockScan)
    : upstream_(upstream),
      sections_(spec.sos.sections),
      zeroPhase_(spec.sos.zeroPhase),
      float32_(type == SampleType::f32),
      name_(std::move(name)),
      // The scan's blocks are whole segments (its bits do not depend on the block either).
      block_(blockScan ? kMostBlockSamples : std::clamp<std::size_t>(blockSamples, 1, kMostBlockSamples)),
      progress_(std::move(progress)),
      state_(2 * sections_.size(), 0.0),
      blockScan_(blockScan),
      gains_(blockScan ? sosGains(sections_) : SosGains{}) {
  static_assert(kMostBlockSamples % detail::kScanSegment == 0);
  forward_.state = state_;
}

SectionsStream::~SectionsStream() {
  if (spool_ >= 0) ::close(spool_);
}

double SectionsStream::fractionRead() const {
  if (!zeroPhase_) return upstream_.fractionRead();
  // A third each: the forward pass (as far as the input is read), the backward pass, handing out.
  const auto share = [&](std::uint64_t done) { return inputs_ == 0 ? 1.0 : static_cast<double>(done) / static_cast<double>(inputs_); };
  if (backwardDone_ == 0 && !filtered_) return upstream_.fractionRead() / 3;
  if (!filtered_) return (1 + share(backwardDone_)) / 3;
  return (2 + share(served_)) / 3;
}

std::size_t SectionsStream::read(std::span<double> out) {
  std::size_t filled = 0;
  while (filled < out.size()) {
    if (handedOut_ == outputs_.size()) {
      if (ended_) break;
      progress_.throwIfCancelled();
      if (zeroPhase_) {
        if (!filtered_) filterZeroPhase();
        produceFromSpool();
      } else {
        produceCausal();
      }
      continue;
    }
    filled = handOut(outputs_, handedOut_, out, filled);
  }
  return filled;
}

std::size_t SectionsStream::readInput(std::span<double> block) {
  std::size_t got = 0;
  while (got < block.size() && !upstreamEnded_) {
    const std::size_t n = upstream_.read(block.subspan(got));
    if (n == 0) upstreamEnded_ = true;
    got += n;
  }
  if (float32_ && got > 0) {  // as the in-memory run: the input narrowed, then filtered in float64
    narrow_.resize(got);
    narrowToFloat32Into(block.first(got), narrow_, name_, inputs_);
    std::copy(narrow_.begin(), narrow_.end(), block.begin());
  }
  inputs_ += got;
  return got;
}

void SectionsStream::roundOutputs() {
  if (!float32_) return;
  for (double& v : outputs_) v = static_cast<float>(v);
}

void SectionsStream::produceCausal() {
  buffer_.resize(block_);
  const std::size_t got = readInput(buffer_);
  outputs_.resize(got);
  const auto start = std::chrono::steady_clock::now();
  filterInto(buffer_.data(), outputs_.data(), got, 1, forward_);
  filterMs_ += millisecondsSince(start);
  blocks_ += got > 0 ? 1 : 0;
  roundOutputs();
  handedOut_ = 0;
  if (got < block_) ended_ = true;
}

void SectionsStream::filterInto(const double* x, double* y, std::size_t count, std::ptrdiff_t stride,
                                detail::ScanCarry& carry) {
  if (!blockScan_) return sosRange(sections_.data(), sections_.size(), state_.data(), x, y, stride, count);
  WorkProgress work(progress_, 0);
  detail::sosScanPiece(sections_, gains_, x, y, static_cast<std::int64_t>(count), stride, carry, work);
}

void SectionsStream::spoolWrite(const double* at, std::size_t count, std::uint64_t first) const {
  const char* bytes = reinterpret_cast<const char*>(at);
  std::size_t left = count * sizeof(double);
  auto offset = static_cast<off_t>(first * sizeof(double));
  while (left > 0) {
    const ssize_t n = ::pwrite(spool_, bytes, left, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw InputError(name_, "cannot write the zero-phase filter's forward pass to a temporary file in " +
                                  spoolFolder_ + ": " +
                                  std::string(n < 0 ? std::strerror(errno) : "no space written"));
    }
    bytes += n;
    offset += n;
    left -= static_cast<std::size_t>(n);
  }
}

void SectionsStream::spoolRead(double* at, std::size_t count, std::uint64_t first) const {
  char* bytes = reinterpret_cast<char*>(at);
  std::size_t left = count * sizeof(double);
  auto offset = static_cast<off_t>(first * sizeof(double));
  while (left > 0) {
    const ssize_t n = ::pread(spool_, bytes, left, offset);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      throw InputError(name_, "cannot read back the zero-phase filter's temporary file: " +
                                  std::string(n < 0 ? std::strerror(errno) : "it ended early"));
    }
    bytes += n;
    offset += n;
    left -= static_cast<std::size_t>(n);
  }
}

// The forward pass over `count` inputs starting at sample inputs_ - count, into the spool.
void SectionsStream::forwardIntoSpool(double* x, std::size_t count) {
  const std::size_t keep = edge_ + 1;
  tail_.insert(tail_.end(), x + (count > keep ? count - keep : 0), x + count);
  if (tail_.size() > keep) tail_.erase(tail_.begin(), tail_.end() - static_cast<std::ptrdiff_t>(keep));
  outputs_.resize(count);
  filterInto(x, outputs_.data(), count, 1, forward_);
  spoolWrite(outputs_.data(), count, inputs_ - count);
}

// sosfiltfilt (sos_filter.cpp) step for step: the same extension, the same start states, the same
// samples through the same recursion in the same order; only where the forward outputs wait differs.
void SectionsStream::filterZeroPhase() {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t edge = edge_ = sosfiltfiltPadLength(sections_);
  SpoolFile spool = openSpoolFile();
  if (spool.fd < 0) {
    throw InputError(name_, "cannot make a temporary file in " + spool.folder + " for the zero-phase filter: " +
                                spool.error);
  }
  spool_ = spool.fd;
  spoolFolder_ = spool.folder;
  // The head x[0..edge] gives the left extension 2 x[0] - x[edge..1]; read with the first block.
  buffer_.resize(std::max(block_, edge + 1));
  const std::size_t head = readInput(buffer_);
  if (head <= edge) {
    throw std::invalid_argument("zero-phase filtering needs more than " + std::to_string(edge) +
                                " samples (3 x (2 x sections + 1)); the signal has " + std::to_string(head));
  }
  const SosState zi = sosfiltZi(sections_);
  std::vector<double> ends(edge);
  for (std::size_t j = 0; j < edge; ++j) ends[j] = 2 * buffer_[0] - buffer_[edge - j];
  const double headInput = maxAbsOf(ends);
  std::transform(zi.begin(), zi.end(), state_.begin(), [&](double z) { return z * ends.front(); });
  sosRange(sections_.data(), sections_.size(), state_.data(), ends.data(), ends.data(), 1, edge);
  forward_ = {state_, true, headInput, 0.0};  // a steady start, its floor the head's edge (sos_scan.cpp)
  forwardIntoSpool(buffer_.data(), head);
  for (;;) {
    progress_.throwIfCancelled();
    const std::size_t got = readInput(std::span<double>(buffer_).first(block_));
    if (got == 0) break;
    forwardIntoSpool(buffer_.data(), got);
    progress_.report(fractionRead());
  }
  // The right extension 2 x[n-1] - x[n-2..n-1-edge], from the last edge + 1 inputs.
  for (std::size_t j = 0; j < edge; ++j) ends[j] = 2 * tail_[edge] - tail_[edge - 1 - j];
  if (blockScan_) state_ = forward_.state;
  sosRange(sections_.data(), sections_.size(), state_.data(), ends.data(), ends.data(), 1, edge);
  const double tailOutput = maxAbsOf(ends);
  std::transform(zi.begin(), zi.end(), state_.begin(), [&](double z) { return z * ends.back(); });
  sosRange(sections_.data(), sections_.size(), state_.data(), ends.data() + edge - 1, ends.data() + edge - 1, -1, edge);
  backward_ = {state_, true, tailOutput, 0.0};
  // Backward over the spool from its end, each block written back in place.
  buffer_.resize(block_);
  for (std::uint64_t end = inputs_; end > 0;) {
    progress_.throwIfCancelled();
    const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(block_, end));
    end -= count;
    spoolRead(buffer_.data(), count, end);
    filterInto(buffer_.data() + count - 1, buffer_.data() + count - 1, count, -1, backward_);
    spoolWrite(buffer_.data(), count, end);
    backwardDone_ += count;
    progress_.report(fractionRead());
  }
  filtered_ = true;
  outputs_.clear();
  filterMs_ += millisecondsSince(start);  // the upstream stages' reads too: they run inside the forward pass
  std::vector<double>().swap(tail_);
  std::vector<double>().swap(buffer_);
}

void SectionsStream::produceFromSpool() {
  const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(block_, inputs_ - served_));
  outputs_.resize(count);
  if (count > 0) spoolRead(outputs_.data(), count, served_);
  served_ += count;
  blocks_ += count > 0 ? 1 : 0;
  roundOutputs();
  handedOut_ = 0;
  if (served_ == inputs_) ended_ = true;
}

}  // namespace siglab::detail
