#include "audio_containers.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

namespace siglab {
namespace {

std::uint64_t bigEndian(Bytes b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v = (v << 8) | std::to_integer<std::uint64_t>(b[at + i]);
  return v;
}
std::uint64_t littleEndian(Bytes b, std::size_t at, std::size_t n) {
  std::uint64_t v = 0;
  for (std::size_t i = n; i-- > 0;) v = (v << 8) | std::to_integer<std::uint64_t>(b[at + i]);
  return v;
}
bool tagAt(Bytes b, std::uint64_t at, const char* tag, std::size_t n = 4) {
  return at + n <= b.size() && std::memcmp(b.data() + at, tag, n) == 0;
}
std::string missingBytes(std::uint64_t stated, std::uint64_t present, const char* chunk) {
  return std::string("its ") + chunk + " lacks its last " + std::to_string(stated - present) + " bytes (the file is cut short)";
}

}  // namespace

namespace {

// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting at 0.
std::uint32_t oggCrc(Bytes bytes, std::uint32_t crc) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t r = i << 24;
      for (int k = 0; k < 8; ++k) r = (r & 0x80000000u) ? (r << 1) ^ 0x04C11DB7u : r << 1;
      t[i] = r;
    }
    return t;
  }();
  for (const std::byte b : bytes) crc = (crc << 8) ^ table[((crc >> 24) ^ std::to_integer<std::uint32_t>(b)) & 0xFF];
  return crc;
}

}  // namespace

std::optional<std::string> oggCutShort(Bytes file) {
  // Page after page from the start: each whole, its checksum right, the last ending the stream.
  // (A page that fails its checksum is skipped by the decoder: the signal would have a hole.)
  std::uint64_t at = 0;
  unsigned lastFlags = 0;
  std::uint64_t page = 0;
  while (at < file.size()) {
    ++page;
    if (!tagAt(file, at, "OggS") || at + 27 > file.size()) {
      return "page " + std::to_string(page) + " (byte " + std::to_string(at) + ") is " +
             (at + 27 > file.size() && tagAt(file, at, "OggS", std::min<std::size_t>(4, file.size() - at))
                  ? "cut off (the file is cut short)" : "not an Ogg page (the file is damaged)");
    }
    const std::size_t segments = std::to_integer<std::size_t>(file[at + 26]);
    std::uint64_t end = at + 27 + segments;
    if (end > file.size()) return "page " + std::to_string(page) + " is cut off (the file is cut short)";
    for (std::size_t k = 0; k < segments; ++k) end += std::to_integer<std::uint64_t>(file[at + 27 + k]);
    if (end > file.size()) return "page " + std::to_string(page) + " is cut off (the file is cut short)";
    static constexpr std::byte kZeros[4]{};
    std::uint32_t crc = oggCrc(file.subspan(at, 22), 0);
    crc = oggCrc(kZeros, crc);
    crc = oggCrc(file.subspan(at + 26, end - at - 26), crc);
    if (crc != static_cast<std::uint32_t>(littleEndian(file, at + 22, 4))) {
      return "page " + std::to_string(page) + " (byte " + std::to_string(at) + ") fails its checksum (the file is damaged)";
    }
    lastFlags = std::to_integer<unsigned>(file[at + 5]);
    at = end;
  }
  if ((lastFlags & 0x4) == 0) return "its last page does not end the stream (the file is cut short)";
  return std::nullopt;
}

std::optional<std::string> aiffCutShort(Bytes file) {
  std::uint64_t frames = 0, frameBytes = 0, ssndAt = 0, ssndSize = 0;
  for (std::uint64_t at = 12; at + 8 <= file.size();) {
    const std::uint64_t size = bigEndian(file, at + 4, 4);
    if (tagAt(file, at, "COMM") && at + 16 <= file.size()) {
      const std::uint64_t channels = bigEndian(file, at + 8, 2);
      frames = bigEndian(file, at + 10, 4);
      frameBytes = channels * ((bigEndian(file, at + 14, 2) + 7) / 8);
    }
    if (tagAt(file, at, "SSND")) {
      ssndAt = at;
      ssndSize = size;
      break;
    }
    at += 8 + size + (size & 1);
  }
  if (ssndAt == 0) return std::nullopt;  // libsndfile says what is missing
  const std::uint64_t present = file.size() - ssndAt - 8;
  if (ssndSize > present) return missingBytes(ssndSize, present, "SSND chunk");
  const std::uint64_t offset = ssndAt + 16 <= file.size() ? bigEndian(file, ssndAt + 8, 4) : 0;
  // Compressed AIFC states frames its bytes do not measure; an uncompressed one cut short does.
  const bool aifc = tagAt(file, 8, "AIFC");
  if (!aifc && frameBytes > 0 && present >= 8 + offset && (present - 8 - offset) / frameBytes < frames) {
    return "its COMM chunk states " + std::to_string(frames) + " frames but the SSND chunk holds " +
           std::to_string((present - 8 - offset) / frameBytes) + " (the file is cut short)";
  }
  return std::nullopt;
}

std::optional<std::string> cafCutShort(Bytes file) {
  for (std::uint64_t at = 8; at + 12 <= file.size();) {
    const std::uint64_t size = bigEndian(file, at + 4, 8);
    if (tagAt(file, at, "data")) {
      const std::uint64_t present = file.size() - at - 12;
      if (size != UINT64_MAX && size > present) return missingBytes(size, present, "data chunk");
      return std::nullopt;
    }
    if (size > file.size()) return std::nullopt;
    at += 12 + size;
  }
  return std::nullopt;
}

std::optional<std::string> w64CutShort(Bytes file) {
  // Chunks: a 16-byte GUID whose first four bytes name it, a 64-bit size counting the 24-byte header.
  for (std::uint64_t at = 40; at + 24 <= file.size();) {
    const std::uint64_t size = littleEndian(file, at + 16, 8);
    if (tagAt(file, at, "data")) {
      const std::uint64_t present = file.size() - at;
      if (size > present) return missingBytes(size - 24, present - 24, "data chunk");
      return std::nullopt;
    }
    if (size < 24 || size > file.size()) return std::nullopt;
    at += (size + 7) / 8 * 8;
  }
  return std::nullopt;
}

std::optional<std::string> auCutShort(Bytes file) {
  if (file.size() < 24) return std::nullopt;
  const bool big = tagAt(file, 0, ".snd");
  const auto field = [&](std::size_t at) { return big ? bigEndian(file, at, 4) : littleEndian(file, at, 4); };
  const std::uint64_t offset = field(4), size = field(8);
  if (size == 0xFFFFFFFFu || offset > file.size()) return std::nullopt;
  const std::uint64_t present = file.size() - offset;
  if (size > present) return missingBytes(size, present, "data");
  return std::nullopt;
}

}  // namespace siglab
