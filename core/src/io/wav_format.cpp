#include <sndfile.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>

#include "parallel_work.hpp"
#include "sample_conversion.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/binary_formats.hpp"

namespace siglab {
namespace {

// A file in memory behind libsndfile's virtual I/O: read from a buffer, or written into a growing one.
struct MemoryFile {
  Bytes input;
  std::vector<std::byte>* output = nullptr;
  sf_count_t position = 0;

  sf_count_t length() const { return static_cast<sf_count_t>(output ? output->size() : input.size()); }
};

MemoryFile& self(void* user) { return *static_cast<MemoryFile*>(user); }

SF_VIRTUAL_IO memoryIo() {
  SF_VIRTUAL_IO io{};
  io.get_filelen = [](void* user) { return self(user).length(); };
  io.seek = [](sf_count_t offset, int whence, void* user) {
    MemoryFile& f = self(user);
    const sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f.position : f.length();
    f.position = std::clamp<sf_count_t>(base + offset, 0, std::numeric_limits<sf_count_t>::max());
    return f.position;
  };
  io.read = [](void* out, sf_count_t count, void* user) {
    MemoryFile& f = self(user);
    const sf_count_t n = std::clamp<sf_count_t>(f.length() - f.position, 0, count);
    if (n > 0) std::memcpy(out, f.input.data() + f.position, static_cast<std::size_t>(n));
    f.position += n;
    return n;
  };
  io.write = [](const void* in, sf_count_t count, void* user) -> sf_count_t {
    MemoryFile& f = self(user);
    if (!f.output) return 0;
    const auto end = static_cast<std::size_t>(f.position + count);
    if (f.output->size() < end) f.output->resize(end);
    std::memcpy(f.output->data() + f.position, in, static_cast<std::size_t>(count));
    f.position += count;
    return count;
  };
  io.tell = [](void* user) { return self(user).position; };
  return io;
}

struct SndfileCloser {
  void operator()(SNDFILE* file) const { sf_close(file); }
};
using SndfileHandle = std::unique_ptr<SNDFILE, SndfileCloser>;

bool isFloatSubtype(int format) {
  const int subtype = format & SF_FORMAT_SUBMASK;
  return subtype == SF_FORMAT_FLOAT || subtype == SF_FORMAT_DOUBLE;
}

std::uint32_t readU32(Bytes bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 4; i-- > 0;) value = (value << 8) | std::to_integer<std::uint32_t>(bytes[at + i]);
  return value;
}

// libsndfile quietly shortens a RIFF WAV whose data chunk is cut off; find that case, so that a
// truncated file is an error rather than a shorter signal. Returns the bytes missing (0 if none,
// or if the size is unknown: 0 or 0xFFFFFFFF from streaming writers, or RF64).
std::uint64_t missingDataBytes(Bytes file) {
  if (file.size() < 12 || std::memcmp(file.data(), "RIFF", 4) != 0) return 0;
  for (std::size_t at = 12; at + 8 <= file.size();) {
    const std::uint32_t size = readU32(file, at + 4);
    if (std::memcmp(file.data() + at, "data", 4) == 0) {
      const std::uint64_t available = file.size() - at - 8;
      return size != 0xFFFFFFFFu && size > available ? size - available : 0;
    }
    at += 8 + std::uint64_t{size} + (size & 1);  // chunks are padded to an even size
  }
  return 0;
}

}  // namespace

Signal parseWav(Bytes file, const std::string& path, std::size_t channel, bool allowNonFinite,
                const Progress& progress) {
  if (file.empty()) throw InputError(path, "the file is empty: expected a WAV file");
  MemoryFile memory{file};
  SF_VIRTUAL_IO io = memoryIo();
  SF_INFO info{};
  const SndfileHandle sound(sf_open_virtual(&io, SFM_READ, &info, &memory));
  if (!sound) throw InputError(path, std::string("not a readable WAV file: ") + sf_strerror(nullptr));
  if (const std::uint64_t missing = missingDataBytes(file)) {
    throw InputError(path, "truncated WAV file: its data chunk lacks its last " + std::to_string(missing) + " bytes");
  }
  if (info.frames <= 0) throw InputError(path, "the WAV file holds no samples");
  if (channel < 1 || channel > static_cast<std::size_t>(info.channels)) {
    throw InputError(path, "channel " + std::to_string(channel) + " asked for, but the file has " +
                               std::to_string(info.channels) + (info.channels == 1 ? " channel" : " channels"));
  }
  const auto frames = static_cast<std::uint64_t>(info.frames);
  const auto channels = static_cast<std::size_t>(info.channels);
  std::vector<double> samples = allocateSamples(frames);
  constexpr std::uint64_t kBlockFrames = 1 << 16;
  std::vector<double> block(kBlockFrames * channels);
  for (std::uint64_t first = 0; first < frames;) {
    progress.throwIfCancelled();
    const auto wanted = static_cast<sf_count_t>(std::min(kBlockFrames, frames - first));
    const sf_count_t got = sf_readf_double(sound.get(), block.data(), wanted);
    if (got <= 0) {
      throw InputError(path, "truncated WAV file: its header promises " + std::to_string(frames) +
                                 " frames but only " + std::to_string(first) + " could be read");
    }
    for (std::size_t f = 0; f < static_cast<std::size_t>(got); ++f) samples[first + f] = block[f * channels + channel - 1];
    first += static_cast<std::uint64_t>(got);
    progress.report(static_cast<double>(first) / static_cast<double>(frames));
  }
  if (!allowNonFinite && isFloatSubtype(info.format)) requireFinite(samples, path);
  return Signal{std::move(samples), static_cast<double>(info.samplerate), path};
}

std::vector<std::byte> encodeWavFloat(std::span<const double> values, double sampleRate, const std::string& path) {
  if (!(sampleRate >= 1.0 && sampleRate <= std::numeric_limits<int>::max()) || sampleRate != std::round(sampleRate)) {
    throw InputError(path, "cannot write WAV: the sample rate must be a whole number of Hz, got " +
                               std::to_string(sampleRate));
  }
  constexpr std::uint64_t kWavDataLimit = 0xFFFFFFFFull - 64;  // RIFF sizes are 32-bit
  if (values.size() > kWavDataLimit / sizeof(float)) {
    throw InputError(path, "cannot write WAV: " + std::to_string(values.size()) +
                               " samples exceed its 4 GiB limit; write .npy or raw instead");
  }
  std::vector<std::byte> bytes;
  bytes.reserve(values.size() * sizeof(float) + 128);
  MemoryFile memory{{}, &bytes};
  SF_VIRTUAL_IO io = memoryIo();
  SF_INFO info{};
  info.samplerate = static_cast<int>(sampleRate);
  info.channels = 1;
  info.format = SF_FORMAT_WAV | SF_FORMAT_FLOAT;
  SndfileHandle sound(sf_open_virtual(&io, SFM_WRITE, &info, &memory));
  if (!sound) throw InputError(path, std::string("cannot write WAV: ") + sf_strerror(nullptr));
  const auto count = static_cast<sf_count_t>(values.size());
  if (sf_writef_double(sound.get(), values.data(), count) != count) {
    throw InputError(path, std::string("cannot write WAV: ") + sf_strerror(sound.get()));
  }
  sound.reset();  // sf_close writes the final header sizes
  return bytes;
}

}  // namespace siglab
