#include "file_bytes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "siglab/errors.hpp"
#include "spool_file.hpp"
#include "truncation_guard.hpp"
#include "waiting_io.hpp"

namespace siglab {
namespace {

std::string systemError(const char* action) { return std::string(action) + ": " + std::strerror(errno); }

const char* kindOfFile(mode_t mode) {
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "of an unknown kind";
}

bool sameVersion(const struct stat& a, const struct stat& b) {
  return a.st_size == b.st_size && a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec;
}

}  // namespace

FileBytes::FileBytes(const std::string& path, std::uint64_t streamBytes) : path_(path) {
  const bool standardInput = path == "-";
  // O_NONBLOCK: opening a FIFO that has no writer would otherwise wait for one forever.
  fd_ = standardInput ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
                      : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (standardInput) path_ = "standard input";
  if (fd_ < 0) throw InputError(path_, systemError("cannot open"));
  try {
    if (::fstat(fd_, &opened_) != 0) throw InputError(path_, systemError("cannot open"));
    if (S_ISDIR(opened_.st_mode)) throw InputError(path_, "cannot read: it is a directory");
    const bool stream = S_ISFIFO(opened_.st_mode) || (standardInput && S_ISSOCK(opened_.st_mode));
    if (!S_ISREG(opened_.st_mode) && !stream) {
      // A device such as /dev/zero never ends: reading it would fill memory.
      throw InputError(path_, std::string("cannot read: not a regular file: it is ") + kindOfFile(opened_.st_mode));
    }
    // Still non-blocking: a pipe with a writer is read to its end (`<(...)`, /dev/stdin), each wait
    // for more ending when the work is cancelled (waiting_io.hpp).
    if (stream) detail::growPipe(fd_);
    const auto throwIfNothingRead = [&] {
      // A named pipe that no program has open for writing reads as an empty file at once.
      if (size_ == 0 && standardInput) throw InputError(path_, "nothing to read: it is empty");
      if (size_ == 0) throw InputError(path_, "nothing to read: it is a named pipe (FIFO) and no program wrote to it");
    };
    if (stream) {
      // Read once to its end (or to streamBytes) into a temporary file, then mapped as a regular
      // file: memory stays bounded whatever its size, and it can be read again (its tail, another
      // engine's try).
      const auto [spooled, ended] = detail::spooledPipe(fd_, opened_, path_, streamBytes);
      if (spooled < 0) {  // no temporary file can be made here: into memory
        readAll();
        throwIfNothingRead();
        return;
      }
      ::close(fd_);
      fd_ = spooled;
      if (::fstat(fd_, &opened_) != 0) throw InputError(path_, systemError("cannot open"));
      cutShort_ = !ended;
      size_ = static_cast<std::size_t>(opened_.st_size);
      throwIfNothingRead();
    }
    size_ = static_cast<std::size_t>(opened_.st_size);
    // A spool read on further by an earlier open: only what was asked for.
    if (cutShort_) size_ = static_cast<std::size_t>(std::min<std::uint64_t>(size_, streamBytes));
    if (size_ == 0) return;
    mapping_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd_, 0);
    if (mapping_ == MAP_FAILED) {
      mapping_ = nullptr;
      throw InputError(path_, systemError("cannot map the file into memory"));
    }
    guardSlot_ = guardMapping(mapping_, size_);
    if (guardSlot_ < 0) {  // more files open at once than the guard holds: copy this one instead
      ::munmap(mapping_, size_);
      mapping_ = nullptr;
      readAll();
      return;
    }
    ::madvise(mapping_, size_, MADV_SEQUENTIAL);  // a hint only: failure is harmless
    data_ = static_cast<const std::byte*>(mapping_);
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

FileBytes::~FileBytes() {
  if (guardSlot_ >= 0) releaseGuard(guardSlot_);
  if (mapping_) ::munmap(mapping_, size_);
  ::close(fd_);
}

void FileBytes::readAll() {
  std::size_t capacity = S_ISREG(opened_.st_mode) ? static_cast<std::size_t>(opened_.st_size) + 1 : 1u << 20;
  buffer_ = std::make_unique_for_overwrite<std::byte[]>(capacity);
  size_ = 0;
  for (;;) {
    if (size_ == capacity) {
      capacity *= 2;
      auto bigger = std::make_unique_for_overwrite<std::byte[]>(capacity);
      std::memcpy(bigger.get(), buffer_.get(), size_);
      buffer_ = std::move(bigger);
    }
    const ssize_t got = detail::readWaiting(fd_, buffer_.get() + size_, capacity - size_);
    if (got == 0) break;
    if (got < 0) throw InputError(path_, systemError("read failed"));
    size_ += static_cast<std::size_t>(got);
  }
  data_ = buffer_.get();
}

void FileBytes::readAt(std::uint64_t offset, std::span<std::byte> out) const {
  if (!mapping_) {  // a pipe or a small file read whole: the bytes are in memory
    if (offset + out.size() > size_) throw InputError(path_, "the file changed while it was being read (another program is writing it): try again");
    std::memcpy(out.data(), data_ + offset, out.size());
    return;
  }
  while (!out.empty()) {
    const ssize_t got = ::pread(fd_, out.data(), out.size(), static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(path_, systemError("read failed"));
    if (got == 0) throw InputError(path_, "the file changed while it was being read (another program is writing it): try again");
    out = out.subspan(static_cast<std::size_t>(got));
    offset += static_cast<std::uint64_t>(got);
  }
}

void FileBytes::release(std::size_t offset, std::size_t length) const {
  if (!mapping_ || offset >= size_) return;
  const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t begin = (offset + page - 1) / page * page;
  const std::size_t end = std::min(offset + length, size_) / page * page;
  if (end > begin) ::madvise(static_cast<char*>(mapping_) + begin, end - begin, MADV_DONTNEED);
}

void FileBytes::throwIfChanged() const {
  if (!S_ISREG(opened_.st_mode)) return;
  struct stat now {};
  const bool truncated = guardSlot_ >= 0 && wasTruncated(guardSlot_);
  if (truncated || ::fstat(fd_, &now) != 0 || !sameVersion(opened_, now) ||
      (!mapping_ && size_ != static_cast<std::size_t>(opened_.st_size))) {
    throw InputError(path_, "the file changed while it was being read (another program is writing it): try again");
  }
}

}  // namespace siglab
