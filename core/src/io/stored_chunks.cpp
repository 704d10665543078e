#include "stored_chunks.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <stdexcept>

#include "sample_conversion.hpp"
#include "siglab/errors.hpp"

namespace siglab {
namespace {

// Inflates the zlib stream `stored` into exactly `size` bytes at `into`; why not, or empty.
std::string inflateExactly(std::span<const unsigned char> stored, unsigned char* into, std::uint64_t size) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) throw std::bad_alloc();
  z.next_in = const_cast<Bytef*>(stored.data());  // zlib's API is not const; it only reads
  z.avail_in = static_cast<uInt>(stored.size());
  z.next_out = into;
  z.avail_out = static_cast<uInt>(size);
  int status = inflate(&z, Z_FINISH);
  std::string why;
  if (status != Z_STREAM_END && status != Z_MEM_ERROR && z.avail_out == 0) {
    unsigned char extra = 0;  // full: one byte more tells a longer stream from one cut short at its end
    z.next_out = &extra;
    z.avail_out = 1;
    status = inflate(&z, Z_FINISH);
    if (z.avail_out == 0) why = "it inflates to more than its " + std::to_string(size) + " bytes";
  }
  if (!why.empty() || status == Z_STREAM_END) {
    if (why.empty() && z.total_out != size) {
      why = "it inflates to " + std::to_string(z.total_out) + " bytes, fewer than its " + std::to_string(size);
    }
  } else if (status == Z_MEM_ERROR) {
    inflateEnd(&z);
    throw std::bad_alloc();
  } else if (status == Z_DATA_ERROR || status == Z_NEED_DICT) {
    why = std::string("its compressed data is damaged") + (z.msg ? std::string(" (zlib: ") + z.msg + ")" : "");
  } else {
    why = "its compressed data is cut short";
  }
  inflateEnd(&z);
  return why;
}

// HDF5's shuffle filter stored byte j of every value together; this puts each value's bytes back.
void unshuffle(const unsigned char* in, std::size_t bytes, std::size_t valueBytes, unsigned char* out) {
  const std::size_t values = bytes / valueBytes;
  for (std::size_t j = 0; j < valueBytes; ++j) {
    const unsigned char* plane = in + j * values;
    for (std::size_t i = 0; i < values; ++i) out[i * valueBytes + j] = plane[i];
  }
  std::memcpy(out + values * valueBytes, in + values * valueBytes, bytes - values * valueBytes);
}

// The sample type a stored layout holds (its bytes are checked when the layout is described).
SampleType sampleTypeOf(const StoredChunkLayout& layout) {
  using Number = StoredChunkLayout::Number;
  switch (layout.number) {
    case Number::floating: return layout.valueBytes == 8 ? SampleType::f64 : SampleType::f32;
    case Number::signedInteger:
      switch (layout.valueBytes) {
        case 1: return SampleType::i8;
        case 2: return SampleType::i16;
        case 4: return SampleType::i32;
        default: return SampleType::i64;
      }
    case Number::unsignedInteger:
      switch (layout.valueBytes) {
        case 1: return SampleType::u8;
        case 2: return SampleType::u16;
        case 4: return SampleType::u32;
        default: return SampleType::u64;
      }
  }
  return SampleType::f64;
}

// "frames 101 to 200", "channel 3" (1-based).
std::string range(const char* what, std::uint64_t first, std::uint64_t count) {
  if (count == 1) return std::string(what) + " " + std::to_string(first + 1);
  return std::string(what) + "s " + std::to_string(first + 1) + " to " + std::to_string(first + count);
}

// A slab's bytes held at once: its samples decoded, or its chunks as stored (about their size).
std::uint64_t slabBytes(const StoredChunkLayout& layout, std::span<const std::size_t> keep) {
  const std::uint64_t decoded = layout.chunkFrames() * keep.size() * sizeof(double);
  return std::max(decoded, layout.chunkBytes() * channelChunksOf(layout, keep).size());
}

}  // namespace

std::string whyNotDecodable(const StoredChunkLayout& layout, std::uint64_t frames, std::uint64_t channels,
                            std::size_t kept) {
  using Number = StoredChunkLayout::Number;
  const std::uint32_t bytes = layout.valueBytes;
  const bool integer = layout.number == Number::signedInteger || layout.number == Number::unsignedInteger;
  if (!(integer && (bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8)) &&
      !(layout.number == Number::floating && (bytes == 4 || bytes == 8))) {
    return "a value type it cannot have";
  }
  if (layout.rank == 1) {
    if (layout.frameAxis != 0 || layout.channelAxis != -1 || layout.dims[1] != 1 || layout.chunk[1] != 1) return "a 1-D shape it cannot have";
  } else if (layout.rank != 2 || layout.frameAxis < 0 || layout.frameAxis > 1 || layout.channelAxis != 1 - layout.frameAxis) {
    return "a shape it cannot have";
  }
  if (layout.frames() != frames || layout.channels() != channels) return "a shape other than the dataset's";
  if (frames > (std::uint64_t{1} << 50) || channels > (std::uint64_t{1} << 32)) return "more samples than any file holds";
  for (const std::uint64_t d : layout.chunk) {
    if (d == 0 || d > kMaxStoredChunkBytes) return "chunks of no size, or too large";
  }
  if (layout.chunkBytes() > kMaxStoredChunkBytes) return "chunks too large";
  const bool filtersUsual = (layout.shuffleAt == -1 && (layout.deflateAt == -1 || layout.deflateAt == 0)) ||
                            (layout.shuffleAt == 0 && (layout.deflateAt == -1 || layout.deflateAt == 1));
  if (!filtersUsual) return "filters it cannot have";
  if (kept == 0 || kept > channels || layout.chunkFrames() * kept * sizeof(double) > kMaxStoredChunkBytes ||
      layout.chunkBytes() * std::min<std::uint64_t>(kept, (channels + layout.chunkChannels() - 1) / layout.chunkChannels()) >
          kMaxStoredChunkBytes) {
    return "slabs too large";
  }
  return {};
}

std::vector<std::uint64_t> channelChunksOf(const StoredChunkLayout& layout, std::span<const std::size_t> keep) {
  std::vector<std::uint64_t> chunks;
  for (const std::size_t channel : keep) chunks.push_back(channel / layout.chunkChannels());
  std::sort(chunks.begin(), chunks.end());
  chunks.erase(std::unique(chunks.begin(), chunks.end()), chunks.end());
  return chunks;
}

std::array<std::uint64_t, 2> chunkOffset(const StoredChunkLayout& layout, std::uint64_t slab, std::uint64_t channelChunk) {
  std::array<std::uint64_t, 2> offset{0, 0};
  offset[static_cast<std::size_t>(layout.frameAxis)] = slab * layout.chunkFrames();
  if (layout.channelAxis >= 0) offset[static_cast<std::size_t>(layout.channelAxis)] = channelChunk * layout.chunkChannels();
  return offset;
}

std::uint64_t slabsPerBlock(const StoredChunkLayout& layout, std::span<const std::size_t> keep) {
  constexpr std::uint64_t kBlockBytes = std::uint64_t{8} << 20;
  return std::max<std::uint64_t>(2, kBlockBytes / std::max<std::uint64_t>(1, slabBytes(layout, keep)));
}

std::uint64_t maxStoredBytes(const StoredChunkLayout& layout) {
  return layout.chunkBytes() + layout.chunkBytes() / 64 + 1024;  // deflate's stored blocks: 5 bytes in 16 KiB
}

void StoredChunkDecoder::decode(const StoredChunkLayout& layout, std::span<const std::size_t> keep,
                                std::span<const unsigned char> stored, std::uint32_t skipped, std::uint64_t slab,
                                std::uint64_t channelChunk, std::span<const std::span<double>> out,
                                std::uint64_t outFirst, const std::string& where, bool allowNonFinite) {
  const std::uint64_t size = layout.chunkBytes();
  const std::uint64_t firstFrame = slab * layout.chunkFrames();
  const auto frames = static_cast<std::size_t>(std::min(layout.chunkFrames(), layout.frames() - firstFrame));
  const std::uint64_t firstChannel = channelChunk * layout.chunkChannels();
  const std::uint64_t channels = std::min(layout.chunkChannels(), layout.channels() - firstChannel);
  if (firstFrame < outFirst || out.size() != keep.size()) throw std::invalid_argument("StoredChunkDecoder: chunk outside the block");
  const auto at = static_cast<std::size_t>(firstFrame - outFirst);
  for (const std::span<double> channel : out) {
    if (channel.size() < at + frames) throw std::invalid_argument("StoredChunkDecoder: chunk outside the block");
  }
  const auto damaged = [&](const std::string& why) {
    std::string chunk = range("frame", firstFrame, frames);
    if (layout.channelAxis >= 0) chunk += ", " + range("channel", firstChannel, channels);
    return InputError(where, "its chunk of " + chunk + " is damaged: " + why);
  };
  const int pipeline = (layout.shuffleAt >= 0) + (layout.deflateAt >= 0);
  if ((skipped >> pipeline) != 0) throw damaged("it skips filters the dataset does not have");
  const bool inflated = layout.deflateAt >= 0 && ((skipped >> layout.deflateAt) & 1) == 0;
  const bool shuffled = layout.shuffleAt >= 0 && ((skipped >> layout.shuffleAt) & 1) == 0;
  if (!inflated && stored.size() != size) {
    throw damaged("it holds " + std::to_string(stored.size()) + " bytes, not its " + std::to_string(size));
  }

  // Where a chunk is one kept float64 channel and lies whole in the dataset, it inflates in place.
  const std::size_t frameStride = layout.rank == 1 || layout.frameAxis == 1 ? 1 : static_cast<std::size_t>(layout.chunk[1]);
  const std::size_t channelStride = layout.rank == 1 ? 0 : layout.frameAxis == 1 ? static_cast<std::size_t>(layout.chunk[1]) : 1;
  const auto kept = std::find(keep.begin(), keep.end(), firstChannel);
  const bool inPlace = inflated && !shuffled && layout.number == StoredChunkLayout::Number::floating &&
                       layout.valueBytes == 8 && layout.chunkChannels() == 1 && kept != keep.end() &&
                       frames == layout.chunkFrames();
  const unsigned char* values = stored.data();
  if (inPlace) {
    double* into = out[static_cast<std::size_t>(kept - keep.begin())].data() + at;
    if (const std::string why = inflateExactly(stored, reinterpret_cast<unsigned char*>(into), size); !why.empty()) {
      throw damaged(why);
    }
  } else {
    if (inflated) {
      inflated_.resize(static_cast<std::size_t>(size));
      if (const std::string why = inflateExactly(stored, inflated_.data(), size); !why.empty()) throw damaged(why);
      values = inflated_.data();
    }
    if (shuffled) {
      unshuffled_.resize(static_cast<std::size_t>(size));
      unshuffle(values, static_cast<std::size_t>(size), layout.valueBytes, unshuffled_.data());
      values = unshuffled_.data();
    }
  }
  for (std::size_t k = 0; k < keep.size(); ++k) {
    if (keep[k] < firstChannel || keep[k] >= firstChannel + channels) continue;
    double* to = out[k].data() + at;
    if (!inPlace) {
      const std::size_t first = static_cast<std::size_t>(keep[k] - firstChannel) * channelStride * layout.valueBytes;
      convertStrided(sampleTypeOf(layout), reinterpret_cast<const std::byte*>(values + first), frameStride, to, frames);
    }
    if (!allowNonFinite && layout.number == StoredChunkLayout::Number::floating) {
      requireFinite(std::span<const double>(to, frames), where, firstFrame);
    }
  }
}

}  // namespace siglab
