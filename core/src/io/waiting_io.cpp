#include "waiting_io.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <thread>

#include "siglab/io/cancel_waits.hpp"
#include "siglab/progress.hpp"

namespace siglab {
namespace {

// How often a wait looks at the cancel flags: polling them, rather than waking on a signal,
// cannot miss a signal that lands just before the wait starts.
constexpr int kLookEveryMs = 20;

std::atomic<const std::atomic<bool>*> processFlag{nullptr};
thread_local const std::atomic<bool>* threadFlag = nullptr;

bool set(const std::atomic<bool>* flag) { return flag && flag->load(std::memory_order_relaxed); }

bool blocking(int fd) {
  const int flags = ::fcntl(fd, F_GETFL);
  return flags >= 0 && (flags & O_NONBLOCK) == 0;
}

}  // namespace

CancelWaitsInProcess::CancelWaitsInProcess(const std::atomic<bool>* flag) { processFlag.store(flag); }
CancelWaitsInProcess::~CancelWaitsInProcess() { processFlag.store(nullptr); }

CancelWaitsOnThread::CancelWaitsOnThread(const std::atomic<bool>* flag) : previous_(threadFlag) { threadFlag = flag; }
CancelWaitsOnThread::~CancelWaitsOnThread() { threadFlag = previous_; }

namespace detail {

void throwIfWaitCancelled() {
  if (set(processFlag.load()) || set(threadFlag)) throw Cancelled();
}

void waitUntilReady(int fd, short events) {
  for (;;) {
    throwIfWaitCancelled();
    pollfd p{fd, events, 0};
    const int ready = ::poll(&p, 1, kLookEveryMs);
    if (ready > 0 || (ready < 0 && errno != EINTR)) return;  // an error: the next call reports it
  }
}

ssize_t readWaiting(int fd, void* data, std::size_t size) {
  // A blocking descriptor (standard input, shared with the shell) is read only once poll says
  // bytes are there: the read then returns them without waiting.
  if (blocking(fd)) waitUntilReady(fd, POLLIN);
  for (;;) {
    const ssize_t got = ::read(fd, data, size);
    if (got >= 0 || errno == EINTR) {
      if (got >= 0) return got;
      continue;
    }
    if (errno != EAGAIN) return -1;
    waitUntilReady(fd, POLLIN);
  }
}

bool writeAllWaiting(int fd, const char* data, std::size_t size) {
  const bool mayBlock = blocking(fd);
  while (size > 0) {
    if (mayBlock) waitUntilReady(fd, POLLOUT);
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written < 0 && errno == EAGAIN) {
      waitUntilReady(fd, POLLOUT);
      continue;
    }
    if (written <= 0) return false;
    data += written;
    size -= static_cast<std::size_t>(written);
  }
  return true;
}

int openForWritingWaiting(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    struct stat s {};
    // ENXIO: a FIFO that no program has open for reading yet.
    if (fd >= 0 || errno != ENXIO || ::stat(path.c_str(), &s) != 0 || !S_ISFIFO(s.st_mode)) return fd;
    throwIfWaitCancelled();
    std::this_thread::sleep_for(std::chrono::milliseconds(kLookEveryMs));
  }
}

int standardOutputForWriting() {
  struct stat s {};
  if (::fstat(STDOUT_FILENO, &s) == 0 && S_ISFIFO(s.st_mode)) {
    const int own = ::open("/proc/self/fd/1", O_WRONLY | O_CLOEXEC | O_NONBLOCK);
    if (own >= 0) return own;
  }
  return ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);
}

}  // namespace detail
}  // namespace siglab
