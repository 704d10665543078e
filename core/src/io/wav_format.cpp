#include <sndfile.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>

#include "parallel_work.hpp"
#include "sndfile_memory.hpp"
#include "planar_frames.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"
#include "stream_readers.hpp"
#include "stream_writers.hpp"
#include "siglab/io/atomic_file.hpp"
#include "siglab/work_bounds.hpp"

namespace siglab {
namespace {

// A finite value that a 32-bit float sample cannot hold (it would be written as an infinity).
bool beyondFloat32(double v) { return std::isfinite(v) && std::fabs(v) > std::numeric_limits<float>::max(); }

bool isFloatSubtype(int format) {
  const int subtype = format & SF_FORMAT_SUBMASK;
  return subtype == SF_FORMAT_FLOAT || subtype == SF_FORMAT_DOUBLE;
}

std::uint32_t readU32(Bytes bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 4; i-- > 0;) value = (value << 8) | std::to_integer<std::uint32_t>(bytes[at + i]);
  return value;
}

std::uint64_t readU64(Bytes bytes, std::size_t at) {
  return readU32(bytes, at) | (std::uint64_t{readU32(bytes, at + 4)} << 32);
}

// libsndfile quietly shortens a WAV file whose data chunk is cut off; find that case, so that a
// truncated file is an error rather than a shorter signal. Returns the bytes missing (0 if none, or
// if the size is unknown: 0 or 0xFFFFFFFF from streaming writers). RF64 states the data's size in
// its ds64 chunk (the data chunk's own field then reads 0xFFFFFFFF).
std::uint64_t missingDataBytes(Bytes file) {
  if (file.size() < 12) return 0;
  const bool rf64 = std::memcmp(file.data(), "RF64", 4) == 0;
  if (!rf64 && std::memcmp(file.data(), "RIFF", 4) != 0) return 0;
  std::uint64_t ds64DataSize = 0;
  for (std::size_t at = 12; at + 8 <= file.size();) {
    const std::uint32_t size = readU32(file, at + 4);
    if (rf64 && std::memcmp(file.data() + at, "ds64", 4) == 0 && at + 8 + 16 <= file.size()) {
      ds64DataSize = readU64(file, at + 8 + 8);  // after the RIFF size
    }
    if (std::memcmp(file.data() + at, "data", 4) == 0) {
      const std::uint64_t available = file.size() - at - 8;
      const std::uint64_t stated = rf64 && size == 0xFFFFFFFFu ? ds64DataSize : size;
      return stated != 0xFFFFFFFFu && stated > available ? stated - available : 0;
    }
    at += 8 + std::uint64_t{size} + (size & 1);  // chunks are padded to an even size
  }
  return 0;
}

// Where the first "data" chunk's bytes begin (RIFF or RF64), if found.
std::optional<std::uint64_t> dataChunkOffset(Bytes file) {
  if (file.size() < 12 || (std::memcmp(file.data(), "RIFF", 4) != 0 && std::memcmp(file.data(), "RF64", 4) != 0)) {
    return std::nullopt;
  }
  for (std::uint64_t at = 12; at + 8 <= file.size();) {
    if (std::memcmp(file.data() + at, "data", 4) == 0) return at + 8;
    const std::uint32_t size = readU32(file, static_cast<std::size_t>(at + 4));
    at += 8 + std::uint64_t{size} + (size & 1);
  }
  return std::nullopt;
}

std::uint64_t bytesPerSample(int format) {
  switch (format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_U8:
    case SF_FORMAT_PCM_S8: return 1;
    case SF_FORMAT_PCM_16: return 2;
    case SF_FORMAT_PCM_24: return 3;
    case SF_FORMAT_PCM_32:
    case SF_FORMAT_FLOAT: return 4;
    case SF_FORMAT_DOUBLE: return 8;
    default: return 0;
  }
}

// A WAV file's channel read block by block, from a buffer or a mapped file that it may own.
class WavStream final : public SampleStream {
 public:
  WavStream(Bytes file, std::unique_ptr<FileBytes> owner, std::string path, std::size_t channel, bool allowNonFinite)
      : owner_(std::move(owner)), path_(std::move(path)), channel_(channel), allowNonFinite_(allowNonFinite),
        memory_{file}, io_(memoryIo()) {
    if (file.empty()) throw InputError(path_, "the file is empty: expected a WAV file");
    sound_.reset(sf_open_virtual(&io_, SFM_READ, &info_, &memory_));
    if (!sound_) throw InputError(path_, std::string("not a readable WAV file: ") + sf_strerror(nullptr));
    if (const std::uint64_t missing = missingDataBytes(file)) {
      throw InputError(path_, "truncated WAV file: its data chunk lacks its last " + std::to_string(missing) + " bytes");
    }
    if (info_.frames <= 0) throw InputError(path_, "the WAV file holds no samples");
    if (channel < 1 || channel > static_cast<std::size_t>(info_.channels)) {
      throw missingChannel(path_, channel, static_cast<std::size_t>(info_.channels));
    }
    frames_ = static_cast<std::uint64_t>(info_.frames);
  }

  std::size_t read(std::span<double> out) override {
    const auto channels = static_cast<std::size_t>(info_.channels);
    constexpr std::uint64_t kBlockFrames = 1 << 16;
    const auto wanted = static_cast<std::size_t>(std::min<std::uint64_t>(out.size(), frames_ - next_));
    block_.resize(static_cast<std::size_t>(std::min<std::uint64_t>(kBlockFrames, std::max<std::size_t>(wanted, 1))) * channels);
    for (std::size_t done = 0; done < wanted;) {
      const auto ask = static_cast<sf_count_t>(std::min<std::size_t>(block_.size() / channels, wanted - done));
      const sf_count_t got = sf_readf_double(sound_.get(), block_.data(), ask);
      if (got <= 0) {
        throw InputError(path_, "truncated WAV file: its header promises " + std::to_string(frames_) +
                                    " frames but only " + std::to_string(next_ + done) + " could be read");
      }
      for (std::size_t f = 0; f < static_cast<std::size_t>(got); ++f) out[done + f] = block_[f * channels + channel_ - 1];
      done += static_cast<std::size_t>(got);
    }
    if (!allowNonFinite_ && isFloatSubtype(info_.format)) requireFinite(out.first(wanted), path_, next_);
    advance(wanted);
    return wanted;
  }

  // The next frames with every channel, interleaved: as many as `out` holds whole frames of.
  std::size_t readInterleaved(std::span<double> out) {
    const auto channels = static_cast<std::size_t>(info_.channels);
    const auto wanted = static_cast<std::size_t>(std::min<std::uint64_t>(out.size() / channels, frames_ - next_));
    for (std::size_t done = 0; done < wanted;) {
      const sf_count_t got = sf_readf_double(sound_.get(), out.data() + done * channels,
                                             static_cast<sf_count_t>(wanted - done));
      if (got <= 0) {
        throw InputError(path_, "truncated WAV file: its header promises " + std::to_string(frames_) +
                                    " frames but only " + std::to_string(next_ + done) + " could be read");
      }
      done += static_cast<std::size_t>(got);
    }
    if (!allowNonFinite_ && isFloatSubtype(info_.format)) {
      requireFinite(out.first(wanted * channels), path_, next_ * channels);
    }
    advance(wanted);
    return wanted;
  }
  std::optional<std::uint64_t> knownSize() const override { return frames_; }
  std::optional<double> sampleRate() const override { return static_cast<double>(info_.samplerate); }
  double fractionRead() const override { return static_cast<double>(next_) / static_cast<double>(frames_); }

  const SF_INFO& info() const { return info_; }
  std::size_t channels() const { return static_cast<std::size_t>(info_.channels); }

  void seekToFrame(std::uint64_t frame) {
    if (sf_seek(sound_.get(), static_cast<sf_count_t>(frame), SEEK_SET) < 0) {
      throw InputError(path_, std::string("cannot seek in the WAV file: ") + sf_strerror(sound_.get()));
    }
    next_ = frame;
  }

 private:
  // Past `frames` more frames; only what libsndfile may still look at stays resident.
  void advance(std::size_t frames) {
    next_ += frames;
    if (!owner_) return;
    constexpr sf_count_t kKeep = 1 << 20;
    if (memory_.position > released_ + 2 * kKeep) {
      owner_->release(static_cast<std::size_t>(released_), static_cast<std::size_t>(memory_.position - kKeep - released_));
      released_ = memory_.position - kKeep;
    }
    if (next_ == frames_) owner_->throwIfChanged();
  }

  std::unique_ptr<FileBytes> owner_;
  std::string path_;
  std::size_t channel_;
  bool allowNonFinite_;
  MemoryFile memory_;
  SF_VIRTUAL_IO io_;
  SF_INFO info_{};
  SndfileHandle sound_;
  std::uint64_t frames_ = 0;
  std::uint64_t next_ = 0;
  sf_count_t released_ = 0;
  std::vector<double> block_;
};

}  // namespace

Signal parseWav(Bytes file, const std::string& path, std::size_t channel, bool allowNonFinite,
                const Progress& progress, std::pmr::memory_resource* memory) {
  WavStream stream(file, nullptr, path, channel, allowNonFinite);
  const std::uint64_t frames = *stream.knownSize();
  SampleVector samples = allocateSamples(frames, memory);
  constexpr std::uint64_t kBlockFrames = 1 << 16;
  for (std::uint64_t first = 0; first < frames;) {
    progress.throwIfCancelled();
    first += stream.read(std::span(samples).subspan(first, std::min(kBlockFrames, frames - first)));
    progress.report(static_cast<double>(first) / static_cast<double>(frames));
  }
  return Signal{std::move(samples), stream.sampleRate(), path};
}

std::unique_ptr<SampleStream> openWavStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                            std::size_t channel, bool allowNonFinite) {
  const Bytes bytes = file->bytes();
  return std::make_unique<WavStream>(bytes, std::move(file), path, channel, allowNonFinite);
}

namespace {

// Every channel of a WAV file, block by block: libsndfile's interleaved frames made planar.
class WavChannelStream final : public ChannelStream {
 public:
  WavChannelStream(Bytes bytes, std::unique_ptr<FileBytes> file, const std::string& path, bool allowNonFinite,
                   std::optional<double> sampleRate)
      : wav_(bytes, std::move(file), path, 1, allowNonFinite), sampleRate_(sampleRate) {}

  std::size_t channels() const override { return wav_.channels(); }
  std::size_t readFrames(std::span<const std::span<double>> out) override {
    const std::size_t channels = wav_.channels();
    const std::size_t wanted = out.empty() ? 0 : out.front().size();
    const std::size_t blockFrames = std::max<std::size_t>(1, (std::size_t{1} << 16) / channels);
    std::size_t done = 0;
    while (done < wanted) {
      block_.resize(std::min(blockFrames, wanted - done) * channels);
      const std::size_t got = wav_.readInterleaved(block_);
      if (got == 0) break;
      deinterleaveFrames(block_.data(), got, out, done);
      done += got;
    }
    return done;
  }
  std::optional<std::uint64_t> knownFrames() const override { return wav_.knownSize(); }
  std::optional<double> sampleRate() const override { return sampleRate_ ? sampleRate_ : wav_.sampleRate(); }
  double fractionRead() const override { return wav_.fractionRead(); }

 private:
  WavStream wav_;
  std::optional<double> sampleRate_;
  std::vector<double> block_;
};

}  // namespace

std::unique_ptr<ChannelStream> openWavChannelStream(std::unique_ptr<FileBytes> file, const std::string& path,
                                                    bool allowNonFinite, std::optional<double> sampleRate) {
  const Bytes bytes = file->bytes();
  return std::make_unique<WavChannelStream>(bytes, std::move(file), path, allowNonFinite, sampleRate);
}

std::vector<double> readWavTail(const FileBytes& file, const std::string& path, std::size_t channel, std::size_t count) {
  WavStream stream(file.bytes(), nullptr, path, channel, true);
  const std::uint64_t frames = *stream.knownSize();
  const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(count, frames));
  std::vector<double> values(n);
  stream.seekToFrame(frames - n);
  try {
    stream.read(values);
  } catch (const InputError&) {
    return {};  // the full read says what is wrong
  }
  return values;
}

std::optional<WavShape> wavShape(Bytes file) {
  MemoryFile memory{file};
  SF_VIRTUAL_IO io = memoryIo();
  SF_INFO info{};
  const SndfileHandle sound(sf_open_virtual(&io, SFM_READ, &info, &memory));
  if (!sound) return std::nullopt;
  return WavShape{static_cast<std::size_t>(info.channels), static_cast<double>(info.samplerate)};
}

std::optional<WavDataLayout> locateWavData(Bytes file, const std::string& path, std::size_t channel) {
  const WavStream stream(file, nullptr, path, channel, true);
  const std::optional<std::uint64_t> offset = dataChunkOffset(file);
  const std::uint64_t sampleBytes = bytesPerSample(stream.info().format);
  if (!offset || sampleBytes == 0) return std::nullopt;
  WavDataLayout layout;
  layout.frames = *stream.knownSize();
  layout.sampleRate = *stream.sampleRate();
  layout.dataOffset = *offset;
  layout.frameBytes = sampleBytes * static_cast<std::uint64_t>(stream.info().channels);
  layout.channels = static_cast<std::size_t>(stream.info().channels);
  return layout;
}

class WavFrameReader::Stream {
 public:
  Stream(Bytes file, const std::string& path, std::size_t channel) : wav(file, nullptr, path, channel, true) {}
  WavStream wav;
};

WavFrameReader::WavFrameReader(Bytes file, const std::string& path, std::size_t channel)
    : stream_(std::make_unique<Stream>(file, path, channel)) {}

WavFrameReader::~WavFrameReader() = default;

void WavFrameReader::read(std::uint64_t first, std::span<double> out) {
  WavStream& wav = stream_->wav;
  const std::uint64_t frames = *wav.knownSize();
  if (first > frames || out.size() > frames - first) throw std::out_of_range("readWavFrames: frames past the end");
  if (out.empty()) return;
  wav.seekToFrame(first);
  for (std::size_t done = 0; done < out.size();) done += wav.read(out.subspan(done));
}

void readWavFrames(Bytes file, const std::string& path, std::size_t channel, std::uint64_t first,
                   std::span<double> out) {
  WavFrameReader(file, path, channel).read(first, out);
}

namespace {

// Frames into a WAV in memory: `writeFrames(sound)` writes them all; `count` frames of `channels`.
std::vector<std::byte> encodeWav(std::uint64_t samples, std::size_t channels, bool wide, double sampleRate,
                                 const std::string& path, const std::function<bool(SNDFILE*)>& writeFrames) {
  const std::uint64_t sampleBytes = wide ? sizeof(double) : sizeof(float);
  if (!(sampleRate >= 1.0 && sampleRate <= std::numeric_limits<int>::max()) || sampleRate != std::round(sampleRate)) {
    throw InputError(path, "cannot write WAV: the sample rate must be a whole number of Hz, got " +
                               std::to_string(sampleRate));
  }
  constexpr std::uint64_t kWavDataLimit = 0xFFFFFFFFull - 64;  // RIFF sizes are 32-bit
  if (samples > kWavDataLimit / sampleBytes) {
    throw InputError(path, "cannot write WAV: " + std::to_string(samples) +
                               " samples exceed its 4 GiB limit; write .npy or raw instead");
  }
  std::vector<std::byte> bytes;
  bytes.reserve(samples * sampleBytes + 128);
  MemoryFile memory{{}, &bytes};
  SF_VIRTUAL_IO io = memoryIo();
  SF_INFO info{};
  info.samplerate = static_cast<int>(sampleRate);
  info.channels = static_cast<int>(channels);
  info.format = SF_FORMAT_WAV | (wide ? SF_FORMAT_DOUBLE : SF_FORMAT_FLOAT);
  SndfileHandle sound(sf_open_virtual(&io, SFM_WRITE, &info, &memory));
  if (!sound) throw InputError(path, std::string("cannot write WAV: ") + sf_strerror(nullptr));
  // No PEAK chunk: it carries the time of writing, so the same samples would not give the same bytes.
  sf_command(sound.get(), SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);
  if (!writeFrames(sound.get())) throw InputError(path, std::string("cannot write WAV: ") + sf_strerror(sound.get()));
  sound.reset();  // sf_close writes the final header sizes
  return bytes;
}

}  // namespace

std::vector<std::byte> encodeWavFloat(std::span<const double> values, double sampleRate, const std::string& path,
                                      std::size_t channels, bool alwaysWide) {
  const bool wide = alwaysWide || std::any_of(values.begin(), values.end(), beyondFloat32);
  return encodeWav(values.size(), channels, wide, sampleRate, path, [&](SNDFILE* sound) {
    const auto count = static_cast<sf_count_t>(values.size() / channels);
    return sf_writef_double(sound, values.data(), count) == count;
  });
}

std::vector<std::byte> encodeWavFloat(std::span<const std::span<const double>> channels, double sampleRate,
                                      const std::string& path, bool alwaysWide) {
  bool wide = alwaysWide;
  for (const std::span<const double> channel : channels) {
    wide = wide || std::any_of(channel.begin(), channel.end(), beyondFloat32);
  }
  const std::size_t frames = channels.empty() ? 0 : channels.front().size();
  return encodeWav(std::uint64_t{frames} * channels.size(), channels.size(), wide, sampleRate, path, [&](SNDFILE* sound) {
    // A block at a time: a whole interleaved copy would double the memory the write takes.
    const std::size_t blockFrames = std::max<std::size_t>(1, (std::size_t{1} << 16) / channels.size());
    std::vector<double> block;
    for (std::size_t first = 0; first < frames; first += blockFrames) {
      const std::size_t n = std::min(blockFrames, frames - first);
      block.resize(n * channels.size());
      for (std::size_t c = 0; c < channels.size(); ++c) {
        for (std::size_t i = 0; i < n; ++i) block[i * channels.size() + c] = channels[c][first + i];
      }
      const auto count = static_cast<sf_count_t>(n);
      if (sf_writef_double(sound, block.data(), count) != count) return false;
    }
    return true;
  });
}

}  // namespace siglab

namespace siglab {
namespace {

// A value that a 32-bit float sample holds bit for bit (so widening it again gives it back).
bool exactInFloat32(double v) {
  return std::bit_cast<std::uint64_t>(static_cast<double>(static_cast<float>(v))) == std::bit_cast<std::uint64_t>(v);
}

// Written block by block as 32-bit float samples until a finite value beyond float32 comes; then
// the file becomes 64-bit (as encodeWavFloat makes it for the same signal, byte for byte): the
// samples already written are widened in place, which is exact only if each was a float32 value.
class WavSink final : public SampleSink {
 public:
  WavSink(const std::string& path, double sampleRate, Durability durability, std::size_t channels, bool alwaysWide)
      : path_(path), target_{AtomicFileWriter(path, durability, DirectOutput::spooled)}, io_(TemporaryFileIo::io()),
        channels_(static_cast<int>(channels)) {
    if (!(sampleRate >= 1.0 && sampleRate <= std::numeric_limits<int>::max()) || sampleRate != std::round(sampleRate)) {
      throw InputError(path, "cannot write WAV: the sample rate must be a whole number of Hz, got " +
                                 std::to_string(sampleRate));
    }
    sampleRate_ = static_cast<int>(sampleRate);
    wide_ = alwaysWide;
    open(wide_ ? SF_FORMAT_DOUBLE : SF_FORMAT_FLOAT);
  }

  void write(std::span<const double> values) override {
    if (!wide_) {
      if (const auto beyond = std::find_if(values.begin(), values.end(), beyondFloat32); beyond != values.end()) {
        switchTo64Bit(count_ + static_cast<std::uint64_t>(beyond - values.begin()) + 1, *beyond);
      }
    }
    constexpr std::uint64_t kWavDataLimit = 0xFFFFFFFFull - 64;  // RIFF sizes are 32-bit
    const std::uint64_t limit = kWavDataLimit / (wide_ ? sizeof(double) : sizeof(float));
    count_ += values.size();
    if (count_ > limit) {
      throw InputError(path_, "cannot write WAV: more than " + std::to_string(limit) +
                                  " samples exceed its 4 GiB limit; write .npy or raw instead");
    }
    if (!wide_ && !firstInexact_) {
      if (const auto inexact = std::find_if_not(values.begin(), values.end(), exactInFloat32); inexact != values.end()) {
        firstInexact_ = {count_ - values.size() + static_cast<std::uint64_t>(inexact - values.begin()) + 1, *inexact};
      }
    }
    const auto n = static_cast<sf_count_t>(values.size() / static_cast<std::size_t>(channels_));
    if (sf_writef_double(sound_.get(), values.data(), n) != n) {
      throw InputError(path_, std::string("cannot write WAV: ") + sf_strerror(sound_.get()));
    }
  }
  void commit() override {
    sound_.reset();  // sf_close writes the final header sizes
    target_.file.commit();
  }

 private:
  struct NumberedValue {
    std::uint64_t sample;  // from 1
    double value;
  };

  void open(int subtype) {
    SF_INFO info{};
    info.samplerate = sampleRate_;
    info.channels = channels_;
    info.format = SF_FORMAT_WAV | subtype;
    target_.position = 0;  // a new header starts at the start, wherever the last handle stopped
    sound_.reset(sf_open_virtual(&io_, SFM_WRITE, &info, &target_));
    if (!sound_) throw InputError(path_, std::string("cannot write WAV: ") + sf_strerror(nullptr));
    sf_command(sound_.get(), SFC_SET_ADD_PEAK_CHUNK, nullptr, SF_FALSE);  // as writeSignal: no time of writing
    dataOffset_ = static_cast<std::uint64_t>(target_.position);  // libsndfile stands where samples begin
  }

  // The header becomes a 64-bit one and the samples written so far 64-bit ones; the output is
  // always a file (a temporary, or a spool for a pipe), so this goes back over it.
  void switchTo64Bit(std::uint64_t sample, double value) {
    if (firstInexact_) {
      throw InputError(path_, "cannot write WAV: sample " + std::to_string(sample) + " (" + shortNumber(value) +
                                  ") is beyond 32-bit float samples, and sample " +
                                  std::to_string(firstInexact_->sample) + " (" + shortNumber(firstInexact_->value) +
                                  "), written block by block before it as a 32-bit one, was rounded: write the "
                                  "whole signal at once (filter --stream never), or .npy or raw");
    }
    const std::uint64_t narrowOffset = dataOffset_;
    target_.discard = true;  // neither handle writes now; the 64-bit one writes its header when closed
    sound_.reset();
    open(SF_FORMAT_DOUBLE);
    if (dataOffset_ < narrowOffset) throw std::logic_error("the 64-bit WAV header is shorter than the 32-bit one");
    widenInPlace(narrowOffset);
    // libsndfile sizes the file by the frames it wrote itself: it is given the widened ones again
    // (as zeros, written nowhere: their bytes are in place), so it stands at the end.
    const auto channels = static_cast<std::uint64_t>(channels_);
    const std::uint64_t frames = count_ / channels;
    std::vector<double> zeros(static_cast<std::size_t>(std::min<std::uint64_t>(frames, kWidenBlock) * channels));
    for (std::uint64_t done = 0; done < frames;) {
      const auto n = static_cast<sf_count_t>(std::min<std::uint64_t>(zeros.size() / channels, frames - done));
      if (sf_writef_double(sound_.get(), zeros.data(), n) != n) {
        throw InputError(path_, std::string("cannot write WAV: ") + sf_strerror(sound_.get()));
      }
      done += static_cast<std::uint64_t>(n);
    }
    target_.discard = false;
    wide_ = true;
  }

  // From the end backwards, a block at a time: each block's wider copy overwrites only bytes of
  // itself or of blocks already widened (the 64-bit data starts no earlier than the 32-bit data).
  void widenInPlace(std::uint64_t narrowOffset) {
    static_assert(std::endian::native == std::endian::little, "WAV samples are little-endian, as this host's");
    std::vector<float> narrow;
    std::vector<double> wide;
    for (std::uint64_t end = count_; end > 0;) {
      const std::uint64_t first = end - std::min<std::uint64_t>(end, kWidenBlock);
      narrow.resize(static_cast<std::size_t>(end - first));
      target_.file.readAt(narrowOffset + first * sizeof(float), std::as_writable_bytes(std::span(narrow)));
      wide.assign(narrow.begin(), narrow.end());
      target_.file.writeAt(dataOffset_ + first * sizeof(double),
                           std::string_view(reinterpret_cast<const char*>(wide.data()), wide.size() * sizeof(double)));
      end = first;
    }
  }

  static constexpr std::uint64_t kWidenBlock = 1 << 16;
  std::string path_;
  TemporaryFileIo target_;
  SF_VIRTUAL_IO io_;
  SndfileHandle sound_;
  int channels_ = 1;  // the values come interleaved, frame by frame
  int sampleRate_ = 0;
  std::uint64_t dataOffset_ = 0;
  std::uint64_t count_ = 0;
  bool wide_ = false;
  std::optional<NumberedValue> firstInexact_;  // while 32-bit: the first sample float32 rounded
};

}  // namespace

std::unique_ptr<SampleSink> openWavSink(const std::string& path, double sampleRate, Durability durability,
                                        std::size_t channels, bool alwaysWide) {
  return std::make_unique<WavSink>(path, sampleRate, durability, channels, alwaysWide);
}

}  // namespace siglab
