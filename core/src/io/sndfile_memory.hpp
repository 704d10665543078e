#pragma once
// libsndfile over bytes in memory (a mapped file or a buffer), for the readers and writers of
// audio formats: its virtual I/O, and a handle that closes itself.
#include <sndfile.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <vector>

#include "siglab/io/atomic_file.hpp"
#include "siglab/io/binary_formats.hpp"

namespace siglab {

// A file in memory behind libsndfile's virtual I/O: read from a buffer, or written into a growing one.
struct MemoryFile {
  Bytes input;
  std::vector<std::byte>* output = nullptr;
  sf_count_t position = 0;

  sf_count_t length() const { return static_cast<sf_count_t>(output ? output->size() : input.size()); }
};

inline MemoryFile& memoryFileOf(void* user) { return *static_cast<MemoryFile*>(user); }

inline SF_VIRTUAL_IO memoryIo() {
  SF_VIRTUAL_IO io{};
  io.get_filelen = [](void* user) { return memoryFileOf(user).length(); };
  io.seek = [](sf_count_t offset, int whence, void* user) {
    MemoryFile& f = memoryFileOf(user);
    const sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f.position : f.length();
    f.position = std::clamp<sf_count_t>(base + offset, 0, std::numeric_limits<sf_count_t>::max());
    return f.position;
  };
  io.read = [](void* out, sf_count_t count, void* user) {
    MemoryFile& f = memoryFileOf(user);
    const sf_count_t n = std::clamp<sf_count_t>(f.length() - f.position, 0, count);
    if (n > 0) std::memcpy(out, f.input.data() + f.position, static_cast<std::size_t>(n));
    f.position += n;
    return n;
  };
  io.write = [](const void* in, sf_count_t count, void* user) -> sf_count_t {
    MemoryFile& f = memoryFileOf(user);
    if (!f.output) return 0;
    const auto end = static_cast<std::size_t>(f.position + count);
    if (f.output->size() < end) f.output->resize(end);
    std::memcpy(f.output->data() + f.position, in, static_cast<std::size_t>(count));
    f.position += count;
    return count;
  };
  io.tell = [](void* user) { return memoryFileOf(user).position; };
  return io;
}

struct SndfileCloser {
  void operator()(SNDFILE* file) const { sf_close(file); }
};
using SndfileHandle = std::unique_ptr<SNDFILE, SndfileCloser>;

// libsndfile's virtual I/O over an atomic temporary file: writes land at the tracked position,
// or nowhere while `discard` is set (libsndfile told of bytes that are already in place).
struct TemporaryFileIo {
  AtomicFileWriter file;
  sf_count_t position = 0;
  sf_count_t length = 0;
  bool discard = false;

  static TemporaryFileIo& of(void* user) { return *static_cast<TemporaryFileIo*>(user); }
  static SF_VIRTUAL_IO io() {
    SF_VIRTUAL_IO io{};
    io.get_filelen = [](void* user) { return of(user).length; };
    io.seek = [](sf_count_t offset, int whence, void* user) {
      TemporaryFileIo& f = of(user);
      const sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? f.position : f.length;
      f.position = std::max<sf_count_t>(base + offset, 0);
      return f.position;
    };
    io.read = [](void*, sf_count_t, void*) -> sf_count_t { return 0; };
    io.write = [](const void* in, sf_count_t count, void* user) -> sf_count_t {
      TemporaryFileIo& f = of(user);
      if (!f.discard) {
        f.file.writeAt(static_cast<std::uint64_t>(f.position),
                       std::string_view(static_cast<const char*>(in), static_cast<std::size_t>(count)));
      }
      f.position += count;
      f.length = std::max(f.length, f.position);
      return count;
    };
    io.tell = [](void* user) { return of(user).position; };
    return io;
  }
};

}  // namespace siglab
