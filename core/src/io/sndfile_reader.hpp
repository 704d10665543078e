#pragma once
// Audio of a format libsndfile decodes (FLAC, Ogg Vorbis/Opus, AIFF, CAF, W64, ...), read from
// bytes in memory or a mapped file, block by block. Nothing is read as a shorter signal: a read
// that leaves libsndfile in an error state (a corrupt frame, lost sync), or a stream that ends
// before the frames its header promises, is an InputError naming the file and what is wrong.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "file_bytes.hpp"
#include "sndfile_memory.hpp"

namespace siglab {

class SndfileReader {
 public:
  // `what` names the format in messages ("FLAC"). `owner`, where given, holds `bytes` and has
  // the pages read behind the reader released.
  SndfileReader(Bytes bytes, std::unique_ptr<FileBytes> owner, std::string path, std::string what, bool allowNonFinite);
  SndfileReader(const SndfileReader&) = delete;
  SndfileReader& operator=(const SndfileReader&) = delete;

  std::size_t channels() const { return static_cast<std::size_t>(info_.channels); }
  double sampleRate() const { return static_cast<double>(info_.samplerate); }
  std::optional<std::uint64_t> frames() const { return frames_; }  // nullopt: the header does not say
  double fractionRead() const;
  const std::string& path() const { return path_; }

  // The next frames, all channels interleaved, as many as `out` holds whole frames of; fewer only
  // at the end, 0 after it.
  std::size_t readInterleaved(std::span<double> out);
  // Goes to `frame` (throws InputError where libsndfile cannot seek in this file).
  void seek(std::uint64_t frame);

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::unique_ptr<FileBytes> owner_;
  std::string path_;
  std::string what_;
  bool allowNonFinite_;
  MemoryFile memory_;
  SF_VIRTUAL_IO io_;
  SF_INFO info_{};
  SndfileHandle sound_;
  std::optional<std::uint64_t> frames_;
  std::uint64_t next_ = 0;
  sf_count_t released_ = 0;
};

// What libsndfile says of the bytes without decoding them: its major format (SF_FORMAT_FLAC, ...),
// channels and rate; nullopt where it cannot open them.
struct SndfileShape {
  int format = 0;
  std::size_t channels = 0;
  double sampleRate = 0.0;
};
std::optional<SndfileShape> sndfileShape(Bytes bytes);

}  // namespace siglab
