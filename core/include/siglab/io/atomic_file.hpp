#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/progress.hpp"

namespace siglab {

enum class Durability {
  flushed,   // fsync before the rename: the new file survives a power cut (costs the disk's write time)
  buffered,  // left to the kernel's write-back, like fprintf
  uncached,  // as buffered, but each write is sent to the disk at once and dropped from the page cache
             // once there (RWF_DONTCACHE; where the kernel or file system lacks it, as buffered): an
             // output streamed because it is too large for memory, which would otherwise push
             // everything else out of the cache
};

// What becomes of an output that cannot be replaced (standard output, a pipe, a device).
enum class DirectOutput {
  immediate,  // written as append() comes (the caller holds the whole result already)
  spooled,    // kept in an unlinked temporary file ($TMPDIR, else /var/tmp) and copied there by
              // finish(): nothing reaches it before the whole output is written and verified
};

// An output that respects what is there. A regular file (or a new name) is written to a temporary
// in the same directory, named .NAME.siglab.tmp-XXXXXX (NAME cut to stay within NAME_MAX; XXXXXX
// random) and locked (flock) while it lives, and renamed over it by commit(), so a reader
// sees either the old file or the complete new one; the old file's permission bits are kept. A
// symlink is followed and its target replaced (the link stays). Anything else (a character
// device, a pipe, a socket, "-" for standard output) is written directly, in order, as `direct`
// says (spooled: all at once by finish(), which then writes there a prefix only if that copy
// itself fails or a second signal ends the process); a FIFO waits for a reader to open it, and
// every wait on a reader ends with Cancelled when the work is cancelled (cancel_waits.hpp). Every failure
// throws InputError naming `path` and the reason (ENOSPC included); destroyed without commit() (a
// failure, a cancellation), it removes its temporary and the old file is untouched. Opening checks
// the output alone as checkOutputsBeforeWork does, and removes abandoned temporaries in that
// directory (removeStaleTemporaries).
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path, Durability durability = Durability::flushed,
                            DirectOutput direct = DirectOutput::immediate);
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();

  void append(std::string_view bytes);
  // Writes `bytes` at `offset` of the temporary without moving where append() writes (a header
  // fixed up once the size is known).
  void writeAt(std::uint64_t offset, std::string_view bytes);
  // Reads back bytes [offset, offset + out.size()) already written to the temporary (a header's
  // writer that must rewrite what it wrote). Throws InputError where the output is not a file.
  void readAt(std::uint64_t offset, std::span<std::byte> out) const;
  void finish();   // everything written (and flushed, as durability asks); nothing replaced yet
  void publish();  // the finished temporary renamed into place (nothing to do for direct output)
  void commit() {
    finish();
    publish();
  }

  const std::string& path() const { return path_; }
  // Where the bytes go until publish() (empty for direct output): other processes may write it
  // too, by name (Dask's workers, each its own blocks).
  const std::string& temporaryPath() const { return temporaryPath_; }
  bool writesDirectly() const { return temporaryPath_.empty() && !published_; }

 private:
  std::string path_;         // as the caller named it, for messages and the format
  std::string targetPath_;   // what is replaced: path_, or the file its symlinks lead to
  std::string temporaryPath_;
  int fd_ = -1;
  int lockFd_ = -1;       // the temporary's lock, held until it is renamed or removed
  int spoolTarget_ = -1;  // a spooled direct output: where finish() copies fd_ to
  bool published_ = false;
  Durability durability_;
  bool dropWritten_ = false;  // uncached into a file of ours (not a spool read back later)
};

// Several outputs of one run that commit together: none is renamed into place until every one
// is complete, so a failure in the last leaves all the old files.
class OutputSet {
 public:
  AtomicFileWriter& add(const std::string& path, Durability durability = Durability::flushed,
                        DirectOutput direct = DirectOutput::immediate);
  void commit();

 private:
  std::vector<std::unique_ptr<AtomicFileWriter>> files_;
};

// Appends the concatenation of `pieces`, reporting progress by bytes written and stopping
// (throwing Cancelled) when cancelled.
void appendPieces(AtomicFileWriter& file, std::span<const std::string_view> pieces, const Progress& progress = {});

// The concatenation of `pieces` written atomically, as above.
void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces,
                         const Progress& progress = {}, Durability durability = Durability::flushed);
void writeFileAtomically(const std::string& path, std::string_view contents, const Progress& progress = {},
                         Durability durability = Durability::flushed);

// Removes the abandoned temporaries in `folder`: only files of exactly that name pattern, regular,
// owned by this user, and whose lock no writer holds (in any process or PID namespace).
void removeStaleTemporaries(const std::string& folder);

}  // namespace siglab
