#include "audio_containers.hpp"

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

std::optional<std::string> oggCutShort(Bytes file) {
  // The last "OggS" whose page (27-byte header, segment table, body) ends exactly at the file's end.
  constexpr std::size_t kLongestPage = 27 + 255 + 255 * 255;
  const std::size_t from = file.size() > kLongestPage ? file.size() - kLongestPage : 0;
  for (std::size_t at = file.size() >= 27 ? file.size() - 27 : 0;; --at) {
    if (tagAt(file, at, "OggS") && at + 27 <= file.size()) {
      const std::size_t segments = std::to_integer<std::size_t>(file[at + 26]);
      if (at + 27 + segments <= file.size()) {
        std::uint64_t body = 0;
        for (std::size_t s = 0; s < segments; ++s) body += std::to_integer<std::uint64_t>(file[at + 27 + s]);
        const std::uint64_t end = at + 27 + segments + body;
        if (end == file.size()) {
          if ((std::to_integer<unsigned>(file[at + 5]) & 0x4) == 0) {
            return "its last page does not end the stream (the file is cut short)";
          }
          return std::nullopt;
        }
      }
    }
    if (at == from) break;
  }
  return "its last page is cut off (the file is cut short)";
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
