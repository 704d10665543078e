#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "siglab/progress.hpp"

namespace siglab {

enum class Durability {
  flushed,   // fsync before the rename: the new file survives a power cut (costs the disk's write time)
  buffered,  // left to the kernel's write-back, like fprintf
};

// A file written through a temporary in the same directory and renamed over `path` by commit(),
// so a reader sees either the old file or the complete new one. Every failure throws InputError
// naming `path` and the reason; destroyed without commit() (a failure, a cancellation), it removes
// the temporary and the old file is untouched.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path, Durability durability = Durability::flushed);
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();

  void append(std::string_view bytes);
  // Writes `bytes` at `offset` of the temporary without moving where append() writes (a header
  // fixed up once the size is known).
  void writeAt(std::uint64_t offset, std::string_view bytes);
  void commit();

 private:
  std::string path_;
  std::string temporaryPath_;
  int fd_ = -1;
  Durability durability_;
};

// The concatenation of `pieces` written atomically, as above; reports progress by bytes written
// and stops (throwing Cancelled) when cancelled.
void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces,
                         const Progress& progress = {}, Durability durability = Durability::flushed);
void writeFileAtomically(const std::string& path, std::string_view contents, const Progress& progress = {},
                         Durability durability = Durability::flushed);

}  // namespace siglab
