// A ChannelStream whose file a child process reads (an untrusted HDF5 dataset through libhdf5):
// the child opens it, says its shape and rate, then sends either its chunks as the file stores them
// (deflate or none, stored_chunks.hpp: this process inflates them, a block of chunks on every core)
// or, for any other layout or filter, its frames as the library decodes them, a block at a time,
// planar; the pipe's buffer bounds how far it reads ahead. The parent trusts nothing it is sent:
// counts, the layout, every chunk's size, the rate and finiteness are checked here.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <thread>

#include "child_process.hpp"
#include "dataset_formats.hpp"
#include "known_shape_stream.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/sample_rate.hpp"
#include "stored_chunks.hpp"

namespace siglab {
namespace {

constexpr std::size_t kBlockSamples = std::size_t{1} << 20;  // 8 MiB of float64 a block
constexpr std::uint64_t kMaxChannels = 1024;                 // datasetChannelsToKeep's limit

std::size_t blockFrames(std::size_t channels) { return std::max<std::size_t>(1, kBlockSamples / std::max<std::size_t>(1, channels)); }

constexpr char kStoredChunk = 'c';  // a chunk as stored: the filters it skipped, its size and its bytes follow

// The layout's fields as the child sends them, and back.
std::vector<std::uint64_t> layoutNumbers(const StoredChunkLayout& l) {
  return {static_cast<std::uint64_t>(l.number), l.valueBytes, static_cast<std::uint64_t>(l.rank), l.dims[0], l.dims[1],
          l.chunk[0], l.chunk[1], static_cast<std::uint64_t>(l.frameAxis + 1), static_cast<std::uint64_t>(l.channelAxis + 1),
          static_cast<std::uint64_t>(l.shuffleAt + 1), static_cast<std::uint64_t>(l.deflateAt + 1)};
}
constexpr std::size_t kLayoutNumbers = 11;

std::optional<StoredChunkLayout> layoutOf(const std::vector<std::uint64_t>& n) {  // whyNotDecodable checks the rest
  if (n.size() != kLayoutNumbers || n[0] > 2 || n[1] > 8 || n[2] > 2 || n[7] > 2 || n[8] > 2 || n[9] > 2 || n[10] > 2) {
    return std::nullopt;
  }
  StoredChunkLayout l;
  l.number = static_cast<StoredChunkLayout::Number>(n[0]);
  l.valueBytes = static_cast<std::uint32_t>(n[1]);
  l.rank = static_cast<int>(n[2]);
  l.dims = {n[3], n[4]};
  l.chunk = {n[5], n[6]};
  l.frameAxis = static_cast<int>(n[7]) - 1;
  l.channelAxis = static_cast<int>(n[8]) - 1;
  l.shuffleAt = static_cast<int>(n[9]) - 1;
  l.deflateAt = static_cast<int>(n[10]) - 1;
  return l;
}

// In the child: every chunk of the slabs, in order, the channel chunks of the kept channels each.
void sendStoredChunks(int out, StoredChunkSource& source) {
  const StoredChunkLayout& layout = source.storedLayout();
  const std::vector<std::uint64_t> channelChunks = channelChunksOf(layout, source.keptChannels());
  std::vector<unsigned char> bytes;
  for (std::uint64_t slab = 0; slab < layout.slabs(); ++slab) {
    for (const std::uint64_t channelChunk : channelChunks) {
      const std::uint32_t skipped = source.readStoredChunk(chunkOffset(layout, slab, channelChunk), bytes);
      detail::writeToParent(out, &kStoredChunk, 1);
      detail::writeNumberToParent(out, skipped);
      detail::writeNumberToParent(out, bytes.size());
      detail::writeToParent(out, bytes.data(), bytes.size());
    }
  }
}

// In the child: the stream's shape and rate, then its chunks as stored, or all its frames a block at a time.
void sendStream(int out, const NamedChannelStream& opened) {
  ChannelStream& stream = *opened.stream;
  const std::size_t channels = stream.channels();
  const std::optional<std::uint64_t> frames = stream.knownFrames();
  const std::optional<double> rate = stream.sampleRate();
  std::uint64_t rateBits = 0;
  if (rate) std::memcpy(&rateBits, &*rate, sizeof rateBits);
  detail::writeToParent(out, &detail::kDescription, 1);
  detail::writeTextToParent(out, opened.where);
  detail::writeNumberToParent(out, frames.value_or(0));
  detail::writeNumberToParent(out, channels);
  detail::writeNumberToParent(out, rate ? 1 : 0);
  detail::writeNumberToParent(out, rateBits);
  detail::writeNumberToParent(out, opened.storedChunks ? 1 : 0);
  if (opened.storedChunks) {
    for (const std::uint64_t n : layoutNumbers(opened.storedChunks->storedLayout())) detail::writeNumberToParent(out, n);
    return sendStoredChunks(out, *opened.storedChunks);
  }
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

// Runs task(i, decoder) for i in [0, count) on every core, a decoder a thread; rethrows the
// failure of the lowest i, so that the error a damaged block gives is always the same.
void decodeOnEveryCore(std::size_t count, std::vector<StoredChunkDecoder>& decoders,
                       const std::function<void(std::size_t, StoredChunkDecoder&)>& task) {
  std::vector<std::exception_ptr> failures(count);
  std::atomic<std::size_t> next{0};
  const auto work = [&](StoredChunkDecoder& decoder) {
    for (std::size_t i = next++; i < count; i = next++) {
      try {
        task(i, decoder);
      } catch (...) {
        failures[i] = std::current_exception();
      }
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (std::size_t t = 1; t < std::min(count, decoders.size()); ++t) helpers.emplace_back(work, std::ref(decoders[t]));
    work(decoders.front());
  }  // joined
  for (const std::exception_ptr& failure : failures) {
    if (failure) std::rethrow_exception(failure);
  }
}

class ChildChannelStream final : public KnownShapeChannelStream {
 public:
  ChildChannelStream(std::unique_ptr<detail::ChildProcess> child, const ReadOptions& options)
      : child_(std::move(child)), where_(child_->path()), allowNonFinite_(options.allowNonFinite) {
    receiveShape(options);
    if (frames() == 0) finish();
  }

 protected:
  void fillFrames(std::span<const std::span<double>> out, std::size_t n) override {
    if (broken_) throw InputError(where_, "an earlier read of it did not finish (cancelled or failed)");
    broken_ = true;  // until this read is whole: the pipe is out of step after an exception
    for (std::size_t done = 0; done < n;) {
      if (heldAt_ < heldFrames_) {
        const std::size_t take = std::min(n - done, heldFrames_ - heldAt_);
        for (std::size_t c = 0; c < channels(); ++c) {
          std::memcpy(out[c].data() + done, held_.data() + c * heldFrames_ + heldAt_, take * sizeof(double));
        }
        heldAt_ += take;
        done += take;
        continue;
      }
      if (stored_) {
        decodeStoredBlock();
      } else {
        const std::size_t count = receiveBlockFrames();
        if (count <= n - done) {  // straight into the caller's spans
          for (std::size_t c = 0; c < channels(); ++c) receiveSamples(out[c].subspan(done, count));
          done += count;
        } else {
          held_.resize(count * channels());
          for (std::size_t c = 0; c < channels(); ++c) receiveSamples(std::span(held_).subspan(c * count, count));
          heldFrames_ = count;
          heldAt_ = 0;
        }
        received_ += count;
      }
      if (received_ == frames()) finish();
    }
    broken_ = false;
  }

 private:
  [[noreturn]] void damaged() { child_->finish('?'); throw InputError(where_, "damaged"); }

  void receiveShape(const ReadOptions& options) {
    const std::optional<char> kind = child_->readKind();
    if (kind != detail::kDescription) child_->finish(kind);  // throws: the child's refusal, or how it ended
    const std::optional<std::string> where = child_->readText();
    const std::optional<std::uint64_t> frames = child_->readNumber();
    const std::optional<std::uint64_t> channels = child_->readNumber();  // what the child sends for each frame
    const std::optional<std::uint64_t> hasRate = child_->readNumber();
    const std::optional<std::uint64_t> rateBits = child_->readNumber();
    const std::optional<std::uint64_t> stored = child_->readNumber();
    if (!where || !frames || !channels || !hasRate || !rateBits || !stored) child_->finish(std::nullopt);
    if (!where->starts_with(where_) || *channels == 0 || *channels > kMaxChannels || *hasRate > 1 || *stored > 1) damaged();
    where_ = *where;
    std::optional<double> rate;
    if (*hasRate) {
      rate.emplace();
      std::memcpy(&*rate, &*rateBits, sizeof *rate);
      if (!isValidSampleRate(*rate)) damaged();
    }
    setShape(static_cast<std::size_t>(*channels), *frames, rate);
    if (*stored) receiveLayout(options);
  }

  // The chunks' layout, checked: the shape the child said, sizes decoded here, the channels kept.
  void receiveLayout(const ReadOptions& options) {
    std::vector<std::uint64_t> numbers;
    for (std::size_t i = 0; i < kLayoutNumbers; ++i) {
      const std::optional<std::uint64_t> n = child_->readNumber();
      if (!n) child_->finish(std::nullopt);
      numbers.push_back(*n);
    }
    stored_ = layoutOf(numbers);
    if (!stored_) damaged();
    keep_ = datasetChannelsToKeep(options, stored_->channels(), where_);
    if (keep_.size() != channels() || !whyNotDecodable(*stored_, frames(), stored_->channels(), keep_.size()).empty()) {
      damaged();
    }
    channelChunks_ = channelChunksOf(*stored_, keep_);
    slabsPerBlock_ = slabsPerBlock(*stored_, keep_);
    decoders_.resize(std::max(1u, std::thread::hardware_concurrency()));
  }

  // The next block's chunks from the child, decoded on every core into held_.
  void decodeStoredBlock() {
    const StoredChunkLayout& layout = *stored_;
    const std::uint64_t firstSlab = received_ / layout.chunkFrames();
    const std::uint64_t slabs = std::min(slabsPerBlock_, layout.slabs() - firstSlab);
    const auto count = static_cast<std::size_t>(std::min(slabs * layout.chunkFrames(), frames() - received_));
    const std::size_t chunks = static_cast<std::size_t>(slabs) * channelChunks_.size();
    if (count == 0) damaged();  // never, with the layout checked: no endless loop on a lie
    child_->restartClock(detail::childTimeLimit(count * channels() * sizeof(double)));
    chunks_.resize(std::max(chunks_.size(), chunks));
    skipped_.resize(chunks_.size());
    for (std::size_t i = 0; i < chunks; ++i) {
      const std::optional<char> kind = child_->readKind();
      if (kind != kStoredChunk) {
        child_->finish(kind);  // throws, unless the child says it is done
        throw InputError(where_, "holds " + std::to_string(received_) + " frames, fewer than its header's " +
                                     std::to_string(frames()) + " (the file is damaged)");
      }
      const std::optional<std::uint64_t> skipped = child_->readNumber();
      const std::optional<std::uint64_t> size = child_->readNumber();
      if (!skipped || !size) child_->finish(std::nullopt);
      if (*skipped > UINT32_MAX || *size > maxStoredBytes(layout)) damaged();
      skipped_[i] = static_cast<std::uint32_t>(*skipped);
      chunks_[i].resize(static_cast<std::size_t>(*size));
      if (!child_->read(chunks_[i].data(), chunks_[i].size())) child_->finish(std::nullopt);
    }
    held_.resize(count * channels());
    std::vector<std::span<double>> planar(channels());
    for (std::size_t c = 0; c < channels(); ++c) planar[c] = std::span(held_).subspan(c * count, count);
    decodeOnEveryCore(chunks, decoders_, [&](std::size_t i, StoredChunkDecoder& decoder) {
      const std::uint64_t slab = firstSlab + i / channelChunks_.size();
      decoder.decode(layout, keep_, chunks_[i], skipped_[i], slab, channelChunks_[i % channelChunks_.size()], planar,
                     received_, where_, allowNonFinite_);
    });
    heldFrames_ = count;
    heldAt_ = 0;
    received_ += count;
  }

  // The next block's frames: at least one, no more than the dataset has left.
  std::size_t receiveBlockFrames() {
    child_->restartClock(detail::childTimeLimit(kBlockSamples * sizeof(double)));
    const std::optional<char> kind = child_->readKind();
    if (kind != detail::kSamples) {
      child_->finish(kind);  // throws, unless the child says it is done
      throw InputError(where_, "holds " + std::to_string(received_) + " frames, fewer than its header's " +
                                   std::to_string(frames()) + " (the file is damaged)");
    }
    const std::optional<std::uint64_t> count = child_->readNumber();
    if (!count) child_->finish(std::nullopt);
    if (*count == 0 || *count > frames() - received_ || *count > blockFrames(channels())) damaged();
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
  std::uint64_t received_ = 0;  // frames come up the pipe (or decoded from their chunks)
  std::vector<double> held_;    // a block larger than the caller asked for, planar
  std::size_t heldFrames_ = 0;
  std::size_t heldAt_ = 0;
  bool broken_ = false;
  // Chunks sent as stored: their layout, the channels kept, and a block's chunks as they came.
  std::optional<StoredChunkLayout> stored_;
  std::vector<std::size_t> keep_;
  std::vector<std::uint64_t> channelChunks_;
  std::uint64_t slabsPerBlock_ = 1;
  std::vector<std::vector<unsigned char>> chunks_;
  std::vector<std::uint32_t> skipped_;
  std::vector<StoredChunkDecoder> decoders_;
};

}  // namespace

std::unique_ptr<ChannelStream> openChannelStreamInChild(
    const std::string& path, const char* library, const ReadOptions& options,
    const std::function<NamedChannelStream(const ReadOptions&)>& open) {
  auto child = std::make_unique<detail::ChildProcess>(path, library, detail::childTimeLimit());
  ReadOptions inChild = options;
  inChild.allowNonFinite = true;  // checked here, where the samples arrive
  const bool started = !detail::childProcessesOff() && child->start([&](int out) {
    sendStream(out, open(inChild));
  });
  if (!started) return open(options).stream;  // no child: read here, as before
  return std::make_unique<ChildChannelStream>(std::move(child), options);
}

}  // namespace siglab
