// HDF5 and MAT files opened first in a child process (dataset_formats.hpp's readHeadersInChild):
// libhdf5 and matio were fuzzed, but damage the fuzzers did not reach can still crash or hang
// them, and only a separate process turns that into an error the program survives.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <new>
#include <optional>

#include "dataset_formats.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/dataset_child.hpp"

namespace siglab {
namespace {

constexpr double kTimeLimitSeconds = 20;
constexpr std::uint64_t kMemoryLimitBytes = std::uint64_t{4} << 30;  // beyond what the process already maps

std::atomic<DatasetChildFault> testFault{DatasetChildFault::none};
std::atomic<double> testTimeLimit{0};

// What the child writes down the pipe before it exits.
constexpr char kFinished = 'f';     // the headers were read, or the library refused the file itself
constexpr char kOutOfMemory = 'm';  // its memory limit was reached

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

// The child's address space: what the parent maps already (a GPU context maps much) and 4 GiB
// more. Not under AddressSanitizer, whose shadow memory no such limit allows.
void limitMemory() {
  if (kAddressSanitizer) return;
  std::uint64_t pages = 0;
  std::ifstream("/proc/self/statm") >> pages;
  const std::uint64_t limit = pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE)) + kMemoryLimitBytes;
  const rlimit bound{limit, limit};
  ::setrlimit(RLIMIT_AS, &bound);
}

[[noreturn]] void runChild(int out, const std::function<void()>& readHeaders) {
  limitMemory();
  const rlimit noCore{0, 0};  // a crash here is the parent's error message, not a core file
  ::setrlimit(RLIMIT_CORE, &noCore);
  char outcome = kFinished;
  switch (testFault.load()) {
    case DatasetChildFault::crash: ::abort();
    case DatasetChildFault::hang: for (;;) ::pause();
    case DatasetChildFault::none:
    case DatasetChildFault::noChild: break;
  }
  try {
    readHeaders();
  } catch (const std::bad_alloc&) {
    outcome = kOutOfMemory;
  } catch (...) {  // the library's own refusal: the parent meets it again, with its message
  }
  while (::write(out, &outcome, 1) < 0 && errno == EINTR) {
  }
  ::_exit(0);  // not exit(): the parent's atexit handlers and stdio buffers are not the child's
}

std::string signalName(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGABRT: return "SIGABRT";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    default: return "signal " + std::to_string(signal);
  }
}

std::string seconds(double value) {
  std::string text = std::to_string(value);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

// The child's one byte within `limit` seconds; nothing when it ended (or was killed) first.
std::optional<char> awaitOutcome(int in, pid_t child, double limit, bool& timedOut) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(limit);
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      ::kill(child, SIGKILL);
      timedOut = true;
      return std::nullopt;
    }
    pollfd ready{in, POLLIN, 0};
    const int n = ::poll(&ready, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
    if (n < 0 && errno != EINTR) return std::nullopt;
    if (n <= 0) continue;
    char outcome = 0;
    const ssize_t got = ::read(in, &outcome, 1);
    if (got == 1) return outcome;
    if (got == 0) return std::nullopt;  // the child ended without a word: it crashed or exited
    if (errno != EINTR) return std::nullopt;
  }
}

}  // namespace

void setDatasetChildFaultForTests(DatasetChildFault fault, double timeLimit) {
  testFault = fault;
  testTimeLimit = timeLimit;
}

void readHeadersInChild(const std::string& path, const char* library, const std::function<void()>& readHeaders) {
  if (testFault.load() == DatasetChildFault::noChild) return;
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return;  // no pipe, no child: the caller reads the file itself, as before
  const pid_t child = forkOutsideHdf5();
  if (child < 0) {
    ::close(ends[0]);
    ::close(ends[1]);
    return;  // no child: the caller reads the file itself, as before
  }
  if (child == 0) {
    ::close(ends[0]);
    runChild(ends[1], readHeaders);
  }
  ::close(ends[1]);
  const double limit = testTimeLimit.load() > 0 ? testTimeLimit.load() : kTimeLimitSeconds;
  bool timedOut = false;
  const std::optional<char> outcome = awaitOutcome(ends[0], child, limit, timedOut);
  ::close(ends[0]);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string who = std::string("the ") + library + " library";
  if (timedOut) {
    throw InputError(path, who + " did not finish reading it in " + seconds(limit) + " s: the file is damaged");
  }
  if (outcome == kFinished) return;
  if (outcome == kOutOfMemory) {
    throw InputError(path, who + " needed more than " + std::to_string(kMemoryLimitBytes >> 30) +
                               " GiB of memory to read it: the file is damaged");
  }
  if (WIFSIGNALED(status)) {
    throw InputError(path, who + " crashed reading it (" + signalName(WTERMSIG(status)) + "): the file is damaged");
  }
  throw InputError(path, who + " stopped reading it (exit status " + std::to_string(WEXITSTATUS(status)) +
                             "): the file is damaged");
}

}  // namespace siglab
