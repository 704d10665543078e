#include "spool_file.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/sendfile.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <utility>

#include "siglab/errors.hpp"
#include "siglab/work_bounds.hpp"
#include "waiting_io.hpp"

namespace siglab::detail {
namespace {

// One temporary file per pipe read, kept open for the process's life (later opens of the pipe read it).
struct Spool {
  int fd = -1;
  bool ended = false;  // false: read only up to a limit so far
  std::string folder;
  // While not ended, the pipe's read end, held: a FIFO whose last reader closes cuts its writer
  // off (SIGPIPE) before it is read on. Closed with the process, which ends the writer's stream then.
  int heldPipe = -1;
};
std::mutex spoolsMutex;
std::map<std::pair<dev_t, ino_t>, Spool>& spools() {
  static std::map<std::pair<dev_t, ino_t>, Spool> byPipe;
  return byPipe;
}

// Room a spool leaves on its file system: a pipe that never ends (`yes 1 | siglab-cli stats -`)
// fails with a clear error instead of filling the disk. Whichever is smaller: 256 MiB or a
// twentieth of the file system.
std::uint64_t reserveOf(const struct statvfs& fs) {
  const std::uint64_t total = static_cast<std::uint64_t>(fs.f_blocks) * fs.f_frsize;
  return std::min<std::uint64_t>(std::uint64_t{256} << 20, total / 20);
}

// True while `more` bytes still fit in the spool's file system above its reserve (or when the
// system does not say).
bool roomFor(int spoolFd, std::uint64_t more) {
  struct statvfs fs {};
  if (::fstatvfs(spoolFd, &fs) != 0) return true;
  const std::uint64_t available = static_cast<std::uint64_t>(fs.f_bavail) * fs.f_frsize;
  return available >= more + reserveOf(fs);
}

}  // namespace

// The most an unprivileged process may give a pipe (1 MiB, not 64 KiB): a sixteenth of the
// wake-ups on each side. On the 2-core VM, 2 GiB raw filtered into a FIFO drained by cat spent 45%
// of its time in the pipe's wake-ups (perf); with 1 MiB none, and the run took 1.2-1.3 s instead of
// 6.7-9.2 s (when the VM's fresh pages are slow, both take 7-12 s, writing the spool file). Not a
// pipe, or the user's pipe quota spent: left as it is.
void growPipe(int fd) { ::fcntl(fd, F_SETPIPE_SZ, 1 << 20); }

SpoolFile openSpoolFile() {
  SpoolFile spool;
  const char* tmpdir = std::getenv("TMPDIR");
  for (const char* folder : {tmpdir, "/var/tmp", "/tmp"}) {
    if (!folder || !*folder) continue;
    spool.folder = folder;
    spool.fd = ::open(folder, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (spool.fd >= 0) return spool;
    if (errno == EOPNOTSUPP || errno == EISDIR) {  // a file system without O_TMPFILE: named, then unlinked
      std::string name = spool.folder + "/.siglab-spool-XXXXXX";
      spool.fd = ::mkostemp(name.data(), O_CLOEXEC);
      if (spool.fd >= 0) {
        ::unlink(name.c_str());
        return spool;
      }
    }
    spool.error = std::strerror(errno);
  }
  return spool;
}

namespace {

// Whether the pipe `fd` has nothing more to give (its writers gone, nothing left), without waiting;
// a byte it gives instead goes to `taken`.
bool pipeHasEnded(int fd, std::string& taken) {
  const bool blocking = (::fcntl(fd, F_GETFL) & O_NONBLOCK) == 0;
  if (blocking) {  // standard input, shared with the shell: asked first, so the read cannot wait
    pollfd ready{fd, POLLIN, 0};
    if (::poll(&ready, 1, 0) <= 0) return false;  // a writer is there, with nothing yet
  }
  char byte = 0;
  const ssize_t got = ::read(fd, &byte, 1);
  if (got == 1) taken.assign(1, byte);
  return got == 0;  // EAGAIN: a writer is there
}

}  // namespace

SpooledPipe spooledPipe(int pipeFd, const struct stat& pipe, const std::string& name, std::uint64_t limit) {
  const std::lock_guard lock(spoolsMutex);
  const auto key = std::make_pair(pipe.st_dev, pipe.st_ino);
  std::string taken;
  SpoolFile spool;
  int heldPipe = -1;
  if (const auto found = spools().find(key); found != spools().end()) {
    const Spool known = found->second;
    spools().erase(found);
    if (known.ended) {
      // The same pipe read again (a probe, then the reader) gets the same bytes. A pipe that gives
      // more is a new one whose inode number was reused (the GUI opens many FIFOs in one process).
      if (pipeHasEnded(pipeFd, taken)) {
        spools()[key] = known;
        return {::fcntl(known.fd, F_DUPFD_CLOEXEC, 0), true};
      }
      ::close(known.fd);
    } else {
      spool.fd = known.fd;  // read before only as far as needed then: read on where it stopped
      spool.folder = known.folder;
      heldPipe = known.heldPipe;
    }
  }
  if (spool.fd < 0) spool = openSpoolFile();
  if (spool.fd < 0) return {};
  const auto fail = [&](const std::string& what) {
    const std::string reason = std::strerror(errno);
    ::close(spool.fd);
    if (heldPipe >= 0) ::close(heldPipe);
    throw InputError(name, what + ": " + reason);
  };
  if (!taken.empty() && !writeAllWaiting(spool.fd, taken.data(), taken.size())) {
    fail("cannot keep it in a temporary file in " + spool.folder + " (set TMPDIR to a folder with room)");
  }
  auto size = static_cast<std::uint64_t>(::lseek(spool.fd, 0, SEEK_END));
  bool ended = false;
  const auto buffer = std::make_unique_for_overwrite<char[]>(std::size_t{1} << 20);
  while (size < limit) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(limit - size, std::size_t{1} << 20));
    const ssize_t got = readWaiting(pipeFd, buffer.get(), want);
    if (got == 0) {
      ended = true;
      break;
    }
    if (got < 0) fail("read failed");
    if (!roomFor(spool.fd, static_cast<std::uint64_t>(got))) {
      errno = ENOSPC;
      fail(formatBytes(static_cast<double>(size)) +
           " read and not at its end: keeping more in a temporary file in " + spool.folder +
           " would leave its file system almost full (set TMPDIR to a folder with room, or give a file)");
    }
    if (!writeAllWaiting(spool.fd, buffer.get(), static_cast<std::size_t>(got))) {
      fail("cannot keep it in a temporary file in " + spool.folder + " (set TMPDIR to a folder with room)");
    }
    size += static_cast<std::uint64_t>(got);
  }
  if (ended && heldPipe >= 0) {
    ::close(heldPipe);
    heldPipe = -1;
  }
  if (!ended && heldPipe < 0) heldPipe = ::fcntl(pipeFd, F_DUPFD_CLOEXEC, 0);
  spools()[key] = Spool{spool.fd, ended, spool.folder, heldPipe};
  return {::fcntl(spool.fd, F_DUPFD_CLOEXEC, 0), ended};
}

bool copyFileTo(int from, std::uint64_t size, int to) {
  growPipe(to);
  off_t offset = 0;
  bool sendfileWorks = true;
  const auto buffer = std::make_unique_for_overwrite<char[]>(std::size_t{1} << 20);
  while (static_cast<std::uint64_t>(offset) < size) {
    const std::size_t chunk = static_cast<std::size_t>(std::min<std::uint64_t>(size - static_cast<std::uint64_t>(offset), std::size_t{1} << 30));
    if (sendfileWorks) {
      waitUntilReady(to, POLLOUT);  // a pipe's reader that stopped reading
      const ssize_t sent = ::sendfile(to, from, &offset, chunk);
      if (sent > 0) continue;
      if (sent < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      if (sent < 0 && (errno == EINVAL || errno == ENOSYS)) {
        sendfileWorks = false;  // an output sendfile cannot write: read and write instead
        continue;
      }
      if (sent == 0) errno = EIO;  // the temporary file is shorter than what was written to it
      return false;
    }
    const ssize_t got = ::pread(from, buffer.get(), std::min<std::size_t>(chunk, std::size_t{1} << 20), offset);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) {
      if (got == 0) errno = EIO;
      return false;
    }
    if (!writeAllWaiting(to, buffer.get(), static_cast<std::size_t>(got))) return false;
    offset += got;
  }
  return true;
}

}  // namespace siglab::detail
