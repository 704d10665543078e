#include "siglab/io/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "siglab/errors.hpp"
#include "siglab/io/output_checks.hpp"
#include "spool_file.hpp"
#include "symlinks.hpp"
#include "waiting_io.hpp"

// Linux 6.14's uncached buffered writes, for headers older than the kernel.
#ifndef RWF_DONTCACHE
#define RWF_DONTCACHE 0x00000080
#endif

namespace siglab {
namespace {

namespace fs = std::filesystem;

std::string systemError(const char* action) { return std::string(action) + ": " + std::strerror(errno); }

std::string nameForMessages(const std::string& path) { return path == "-" ? "standard output" : path; }

// A temporary is ".NAME.siglab.tmp-XXXXXX": NAME is the output's name (its first bytes where the
// whole would pass NAME_MAX), XXXXXX mkostemp's random letters and digits.
constexpr std::string_view kTemporaryTag = ".siglab.tmp-";
constexpr std::size_t kRandomLength = 6;
constexpr std::size_t kLongestName = 255;  // NAME_MAX of Linux's file systems

bool isTemporaryName(std::string_view name) {
  const std::size_t tail = kTemporaryTag.size() + kRandomLength;
  if (name.size() < 2 + tail || name[0] != '.') return false;
  if (name.substr(name.size() - tail, kTemporaryTag.size()) != kTemporaryTag) return false;
  return std::all_of(name.end() - kRandomLength, name.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

// The temporary's name for an output named `name`, within NAME_MAX whatever the output's length
// (cut on a UTF-8 character boundary).
std::string temporaryName(const std::string& name) {
  std::size_t keep = std::min(name.size(), kLongestName - 1 - kTemporaryTag.size() - kRandomLength);
  while (keep > 0 && keep < name.size() && (static_cast<unsigned char>(name[keep]) & 0xC0) == 0x80) --keep;
  std::string temporary = ".";  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "." + string
  temporary.append(name, 0, keep);
  temporary += kTemporaryTag;
  temporary.append(kRandomLength, 'X');
  return temporary;
}

// Waits for the exclusive lock on `fd`, retrying after a signal; false where the file system has
// no locks (a temporary there is then never swept: nothing can prove it abandoned).
bool lockExclusively(int fd) {
  while (::flock(fd, LOCK_EX) != 0) {
    if (errno != EINTR) return false;
  }
  return true;
}

}  // namespace

// A temporary is removed only when it is provably abandoned: our exact name, a regular file of
// ours, and its writer's lock free (a writer holds it from creation to rename or removal, so this
// holds in any PID namespace, and a crashed writer's lock went with its process).
void removeStaleTemporaries(const std::string& folder) {
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    if (!isTemporaryName(entry->d_name)) continue;
    const int fd = ::openat(::dirfd(dir), entry->d_name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) continue;
    struct stat opened {}, named {};
    if (::fstat(fd, &opened) == 0 && S_ISREG(opened.st_mode) && opened.st_uid == ::geteuid() &&
        ::flock(fd, LOCK_EX | LOCK_NB) == 0 && ::fstatat(::dirfd(dir), entry->d_name, &named, AT_SYMLINK_NOFOLLOW) == 0 &&
        named.st_dev == opened.st_dev && named.st_ino == opened.st_ino) {
      ::unlinkat(::dirfd(dir), entry->d_name, 0);
    }
    ::close(fd);
  }
  ::closedir(dir);
}

AtomicFileWriter::AtomicFileWriter(std::string path, Durability durability, DirectOutput direct)
    : path_(std::move(path)), durability_(durability) {
  const auto spoolIf = [&] {
    if (direct != DirectOutput::spooled) return;
    const detail::SpoolFile spool = detail::openSpoolFile();
    if (spool.fd < 0) {
      ::close(fd_);
      fd_ = -1;
      throw InputError(nameForMessages(path_), "cannot keep the output in a temporary file until it is complete: " +
                                                   spool.folder + ": " + spool.error + " (set TMPDIR to a writable folder)");
    }
    spoolTarget_ = fd_;
    fd_ = spool.fd;
  };
  if (path_ == "-") {
    fd_ = detail::standardOutputForWriting();
    if (fd_ < 0) throw InputError(nameForMessages(path_), systemError("cannot write"));
    spoolIf();
    return;
  }
  checkOutputPath({"", path_});
  targetPath_ = detail::resolveSymlinks(path_);
  struct stat existing {};
  const bool exists = ::stat(targetPath_.c_str(), &existing) == 0;
  if (exists && !S_ISREG(existing.st_mode)) {
    // A device, pipe or socket: written in place; replacing it would destroy it.
    fd_ = detail::openForWritingWaiting(targetPath_);
    if (fd_ < 0) throw InputError(path_, systemError("cannot open for writing"));
    spoolIf();
    return;
  }
  const std::string folder = detail::folderOf(targetPath_);
  removeStaleTemporaries(folder);
  for (;;) {
    temporaryPath_ = (fs::path(folder) / temporaryName(fs::path(targetPath_).filename().string())).string();
    fd_ = ::mkostemp(temporaryPath_.data(), O_CLOEXEC);
    if (fd_ < 0) {
      temporaryPath_.clear();
      throw InputError(path_, systemError("cannot create a temporary file beside it"));
    }
    // Held until the temporary is renamed or removed (a second descriptor keeps it past finish()).
    struct stat created {};
    if (!lockExclusively(fd_) || (::fstat(fd_, &created) == 0 && created.st_nlink > 0)) break;
    ::close(fd_);  // a sweep removed it before we held the lock: make another
  }
  lockFd_ = ::fcntl(fd_, F_DUPFD_CLOEXEC, 0);
  if (exists) {
    // Keep the replaced file's permissions (and, where allowed, its owner).
    if (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid()) {
      [[maybe_unused]] const int ignored = ::fchown(fd_, existing.st_uid, existing.st_gid);
    }
    ::fchmod(fd_, existing.st_mode & 07777);
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);  // mkstemp makes 0600; give the file the usual permissions
  }
  dropWritten_ = durability_ == Durability::uncached;
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (spoolTarget_ >= 0) ::close(spoolTarget_);
  if (!temporaryPath_.empty()) ::unlink(temporaryPath_.c_str());
  if (lockFd_ >= 0) ::close(lockFd_);  // after the unlink: a sweep never finds a live temporary unlocked
}

namespace {

// Measured on the 2-core VM: one 32 MiB write() into the page cache ran at a sixth of the speed of
// the same bytes in 1 MiB writes (dd bs=32M 94 MB/s, bs=1M 540 MB/s, bs=128k 630 MB/s).
constexpr std::size_t kLargestWrite = std::size_t{1} << 20;

// One write() of at most kLargestWrite bytes; `dropWritten` asks for RWF_DONTCACHE (Durability::
// uncached), and is cleared where the kernel or the file system lacks it. Measured on the VM, 4 GiB
// raw to raw through `filter`, runs alternating: 2.3-2.6 s with it, 6.4-13.9 s without (cp 3.0-7.2 s).
// There, a fresh page-cache page is memory the guest had handed back to the host (virtio-balloon
// free page reporting): its first touch costs a host fault, and copies into such pages ran at
// 0.3-1 GB/s; dropped pages come back still backed. Anywhere, the output leaves the cache's other
// contents (the input's pages first) where they are.
ssize_t writeSome(int fd, std::string_view bytes, bool& dropWritten) {
  const std::size_t size = std::min(bytes.size(), kLargestWrite);
  if (dropWritten) {
    iovec piece{const_cast<char*>(bytes.data()), size};
    const ssize_t written = ::pwritev2(fd, &piece, 1, -1, RWF_DONTCACHE);  // -1: at the file position, as write()
    if (written >= 0 || (errno != EOPNOTSUPP && errno != EINVAL)) return written;
    dropWritten = false;
  }
  return ::write(fd, bytes.data(), size);
}

}  // namespace

void AtomicFileWriter::append(std::string_view bytes) {
  if (fd_ < 0) throw InputError(nameForMessages(path_), "write failed: the file is already closed");
  while (!bytes.empty()) {
    if (writesDirectly()) detail::waitUntilReady(fd_, POLLOUT);  // a reader that stopped reading
    const ssize_t written = writeSome(fd_, bytes, dropWritten_);
    if (written < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      throw InputError(nameForMessages(path_), systemError("write failed"));
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
  }
}

void AtomicFileWriter::writeAt(std::uint64_t offset, std::string_view bytes) {
  if (writesDirectly() && spoolTarget_ < 0) {
    throw InputError(nameForMessages(path_), "cannot go back to complete the file's header: it is not a regular "
                                             "file (a pipe or a device); write text or raw samples there");
  }
  while (!bytes.empty()) {
    const ssize_t written = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (written < 0) {
      if (errno == EINTR) continue;
      throw InputError(nameForMessages(path_), systemError("write failed"));
    }
    bytes.remove_prefix(static_cast<std::size_t>(written));
    offset += static_cast<std::uint64_t>(written);
  }
}

void AtomicFileWriter::readAt(std::uint64_t offset, std::span<std::byte> out) const {
  if (fd_ < 0 || (writesDirectly() && spoolTarget_ < 0)) {
    throw InputError(nameForMessages(path_), "cannot read back what was written: it is not a regular file (a pipe "
                                             "or a device); write text or raw samples there");
  }
  while (!out.empty()) {
    const ssize_t got = ::pread(fd_, out.data(), out.size(), static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw InputError(nameForMessages(path_), systemError("read back failed"));
    if (got == 0) throw InputError(nameForMessages(path_), "read back failed: the temporary file is cut short");
    out = out.subspan(static_cast<std::size_t>(got));
    offset += static_cast<std::uint64_t>(got);
  }
}

void AtomicFileWriter::finish() {
  if (fd_ < 0) return;
  if (spoolTarget_ >= 0) {  // the whole output, now that it is complete
    struct stat spooled {};
    if (::fstat(fd_, &spooled) != 0 || !detail::copyFileTo(fd_, static_cast<std::uint64_t>(spooled.st_size), spoolTarget_)) {
      throw InputError(nameForMessages(path_), systemError("write failed"));
    }
    ::close(fd_);
    fd_ = spoolTarget_;
    spoolTarget_ = -1;
  }
  // fsync of a pipe or a terminal fails with EINVAL: there is nothing to flush.
  if (durability_ == Durability::flushed && ::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) {
    throw InputError(nameForMessages(path_), systemError("write failed"));
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw InputError(nameForMessages(path_), systemError("write failed"));
}

void AtomicFileWriter::publish() {
  finish();
  if (temporaryPath_.empty()) return;
  if (::rename(temporaryPath_.c_str(), targetPath_.c_str()) != 0) {
    throw InputError(path_, systemError("cannot replace the file"));
  }
  temporaryPath_.clear();
  published_ = true;
  ::close(lockFd_);
  lockFd_ = -1;
}

AtomicFileWriter& OutputSet::add(const std::string& path, Durability durability, DirectOutput direct) {
  files_.push_back(std::make_unique<AtomicFileWriter>(path, durability, direct));
  return *files_.back();
}

void OutputSet::commit() {
  for (auto& file : files_) file->finish();
  for (auto& file : files_) file->publish();
}

void appendPieces(AtomicFileWriter& file, std::span<const std::string_view> pieces, const Progress& progress) {
  std::uint64_t total = 0;
  for (std::string_view piece : pieces) total += piece.size();
  std::uint64_t done = 0;
  constexpr std::size_t kSlice = 8u << 20;  // between two looks at the cancel flag
  for (std::string_view piece : pieces) {
    for (std::size_t at = 0; at < piece.size(); at += kSlice) {
      progress.throwIfCancelled();
      const std::string_view slice = piece.substr(at, kSlice);
      file.append(slice);
      done += slice.size();
      progress.report(static_cast<double>(done) / static_cast<double>(total));
    }
  }
  progress.throwIfCancelled();
}

void writeFileAtomically(const std::string& path, std::span<const std::string_view> pieces, const Progress& progress,
                         Durability durability) {
  AtomicFileWriter file(path, durability);
  appendPieces(file, pieces, progress);
  file.commit();
}

void writeFileAtomically(const std::string& path, std::string_view contents, const Progress& progress,
                         Durability durability) {
  writeFileAtomically(path, std::span<const std::string_view>(&contents, 1), progress, durability);
}

}  // namespace siglab
