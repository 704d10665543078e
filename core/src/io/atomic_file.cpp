#include "siglab/io/atomic_file.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <filesystem>

#include "siglab/errors.hpp"
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

// The pid in ".NAME.tmp-PID-XXXXXX", or 0 when `name` is not such a temporary.
pid_t temporaryOwner(std::string_view name) {
  if (name.size() < 2 || name[0] != '.') return 0;
  const std::size_t tag = name.rfind(".tmp-");
  if (tag == std::string_view::npos || tag == 0) return 0;
  const std::string_view rest = name.substr(tag + 5);
  long pid = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
  if (ec != std::errc() || end == rest.data() || pid <= 0) return 0;
  const std::string_view suffix(end, static_cast<std::size_t>(rest.data() + rest.size() - end));
  return suffix.size() == 7 && suffix[0] == '-' ? static_cast<pid_t>(pid) : 0;
}

}  // namespace

void removeStaleTemporaries(const std::string& folder) {
  DIR* dir = ::opendir(folder.c_str());
  if (!dir) return;
  while (const dirent* entry = ::readdir(dir)) {
    const pid_t owner = temporaryOwner(entry->d_name);
    if (owner == 0 || owner == ::getpid()) continue;
    if (::kill(owner, 0) != 0 && errno == ESRCH) ::unlinkat(::dirfd(dir), entry->d_name, 0);
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
  targetPath_ = detail::resolveSymlinks(path_);
  struct stat existing {};
  const bool exists = ::stat(targetPath_.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode)) throw InputError(path_, "cannot write: it is a directory");
  if (exists && !S_ISREG(existing.st_mode)) {
    // A device, pipe or socket: written in place; replacing it would destroy it.
    fd_ = detail::openForWritingWaiting(targetPath_);
    if (fd_ < 0) throw InputError(path_, systemError("cannot open for writing"));
    spoolIf();
    return;
  }
  const std::string folder = detail::folderOf(targetPath_);
  removeStaleTemporaries(folder);
  std::string name = ".";  // appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "." + string
  name += fs::path(targetPath_).filename().string();
  name += ".tmp-";
  name += std::to_string(::getpid());
  name += "-XXXXXX";
  temporaryPath_ = (fs::path(folder) / name).string();
  fd_ = ::mkostemp(temporaryPath_.data(), O_CLOEXEC);
  if (fd_ < 0) {
    temporaryPath_.clear();
    throw InputError(path_, systemError("cannot create a temporary file beside it"));
  }
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
