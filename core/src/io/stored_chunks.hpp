#pragma once
// An HDF5 dataset's chunks as the file stores them (deflate-compressed, byte-shuffled, or neither),
// decoded by this process with zlib: the child process reads them with libhdf5 (H5Dread_chunk) and
// sends them up its pipe, about a thirtieth of the decoded samples, and the chunks of a block are
// inflated here on every core (child_channel_stream.cpp). Nothing the child says is trusted: the
// layout is checked (whyNotDecodable) and every chunk's inflate is bound by its size.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace siglab {

// How the chunks lie; the child describes it, the parent checks it.
struct StoredChunkLayout {
  enum class Number : std::uint8_t { floating, signedInteger, unsignedInteger };
  Number number = Number::floating;
  std::uint32_t valueBytes = 8;  // little-endian: 1, 2, 4, 8 (floats 4, 8)
  int rank = 1;
  std::array<std::uint64_t, 2> dims{1, 1};   // the dataset's shape, in the file's order
  std::array<std::uint64_t, 2> chunk{1, 1};  // a chunk's shape (edge chunks are stored whole too)
  int frameAxis = 0;
  int channelAxis = -1;  // -1: 1-D
  int shuffleAt = -1;    // the filters' places in the pipeline (-1: absent): shuffle, then deflate
  int deflateAt = -1;

  std::uint64_t frames() const { return dims[static_cast<std::size_t>(frameAxis)]; }
  std::uint64_t channels() const { return channelAxis < 0 ? 1 : dims[static_cast<std::size_t>(channelAxis)]; }
  std::uint64_t chunkFrames() const { return chunk[static_cast<std::size_t>(frameAxis)]; }
  std::uint64_t chunkChannels() const { return channelAxis < 0 ? 1 : chunk[static_cast<std::size_t>(channelAxis)]; }
  std::uint64_t chunkBytes() const { return chunk[0] * chunk[1] * valueBytes; }
  std::uint64_t slabs() const { return (frames() + chunkFrames() - 1) / chunkFrames(); }  // chunk rows along the frames
};

// The largest chunk, and slab of a block (decoded, or as stored), decoded here (larger ones are read
// by libhdf5 in the child, as other filters are).
constexpr std::uint64_t kMaxStoredChunkBytes = std::uint64_t{16} << 20;

// Why `layout` cannot be what the child says it is (a dataset of `frames` x `channels`), or is not
// decoded here (its chunks too large for the block of `kept` channels held), or empty. The child asks
// it too before it sends chunks as stored.
std::string whyNotDecodable(const StoredChunkLayout& layout, std::uint64_t frames, std::uint64_t channels,
                            std::size_t kept);

// How many slabs a block decoded at once holds: about 8 MiB of samples, and at least two, so that
// every core has a chunk.
std::uint64_t slabsPerBlock(const StoredChunkLayout& layout, std::span<const std::size_t> keep);

// The chunks along the channel axis that hold the channels `keep` (ascending; {0} for 1-D). A slab's
// chunks are sent in this order, slab after slab.
std::vector<std::uint64_t> channelChunksOf(const StoredChunkLayout& layout, std::span<const std::size_t> keep);

// The file-order offset of chunk (`slab`, `channelChunk`), as H5Dread_chunk takes it.
std::array<std::uint64_t, 2> chunkOffset(const StoredChunkLayout& layout, std::uint64_t slab, std::uint64_t channelChunk);

// The most bytes a stored chunk may have (deflate adds a few bytes to what it cannot shrink).
std::uint64_t maxStoredBytes(const StoredChunkLayout& layout);

// Decodes stored chunks into planar frames. One a thread: it keeps its buffers between chunks.
class StoredChunkDecoder {
 public:
  // Chunk (`slab`, `channelChunk`) stored as `stored`, its pipeline's filters skipped as the bits of
  // `skipped` say (H5Dread_chunk's filter mask), into `out` (one span a kept channel, `keep[k]` the
  // dataset's channel of out[k]), whose first frame is frame `outFirst` of the dataset. Throws
  // InputError naming `where` and the chunk where it is damaged: it inflates to more or less than
  // its size, its compressed data is damaged or cut short, or (unless allowNonFinite) it holds a
  // value that is not finite.
  void decode(const StoredChunkLayout& layout, std::span<const std::size_t> keep, std::span<const unsigned char> stored,
              std::uint32_t skipped, std::uint64_t slab, std::uint64_t channelChunk,
              std::span<const std::span<double>> out, std::uint64_t outFirst, const std::string& where,
              bool allowNonFinite);

 private:
  std::vector<unsigned char> inflated_;
  std::vector<unsigned char> unshuffled_;
};

}  // namespace siglab
