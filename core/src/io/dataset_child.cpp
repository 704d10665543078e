// HDF5 and MAT files opened first in a child process (dataset_formats.hpp's readHeadersInChild),
// and MAT v5 samples read there too (readSamplesInChild): libhdf5 and matio were fuzzed, but damage
// the fuzzers did not reach can still crash or hang them, and only a separate process turns that
// into an error the program survives.
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
constexpr double kSampleBytesPerSecond = 20e6;  // samples read in the child: the limit grows with their size
constexpr std::uint64_t kMemoryLimitBytes = std::uint64_t{4} << 30;  // beyond what the process already maps
constexpr std::size_t kMaxMessageBytes = 1 << 16;

std::atomic<DatasetChildFault> testFault{DatasetChildFault::none};
std::atomic<double> testTimeLimit{0};
bool inChild = false;  // set in the child process only

// What the child writes down the pipe: its outcome byte, last, after any blocks of samples.
constexpr char kFinished = 'f';     // done (headers: read, or the library refused the file itself)
constexpr char kOutOfMemory = 'm';  // its memory limit was reached
constexpr char kRefused = 'e';      // an InputError: its path, line, column and reason follow
constexpr char kSamples = 'd';      // a block of samples: its count (uint64) and its float64 values follow

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

// In the child: all of `bytes`, or the child ends (its parent is gone).
void writeAll(int out, const void* data, std::size_t bytes) {
  const char* at = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(out, at, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(1);
    at += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

void writeNumber(int out, std::uint64_t value) { writeAll(out, &value, sizeof value); }

void writeText(int out, const std::string& text) {
  const std::size_t length = std::min(text.size(), kMaxMessageBytes);
  writeNumber(out, length);
  writeAll(out, text.data(), length);
}

void writeRefusal(int out, const InputError& error) {
  const std::string what = error.what();
  const std::size_t colon = what.find(": ", error.path().size());  // after "path[:line[:column]]"
  writeAll(out, &kRefused, 1);
  writeText(out, error.path());
  writeNumber(out, error.line());
  writeNumber(out, error.column());
  writeText(out, colon == std::string::npos ? what : what.substr(colon + 2));
}

[[noreturn]] void runChild(int out, const std::function<void(int)>& work) {
  inChild = true;
  limitMemory();
  const rlimit noCore{0, 0};  // a crash here is the parent's error message, not a core file
  ::setrlimit(RLIMIT_CORE, &noCore);
  switch (testFault.load()) {
    case DatasetChildFault::crash: ::abort();
    case DatasetChildFault::hang: for (;;) ::pause();
    case DatasetChildFault::crashReadingSamples:
    case DatasetChildFault::none:
    case DatasetChildFault::noChild: break;
  }
  char outcome = kFinished;
  try {
    work(out);
  } catch (const std::bad_alloc&) {
    outcome = kOutOfMemory;
  } catch (const InputError& error) {
    writeRefusal(out, error);
    ::_exit(0);
  } catch (...) {
    ::_exit(1);  // the parent says the library stopped reading it
  }
  writeAll(out, &outcome, 1);
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

// A child process reading `path` with `library`, seen from the parent: what it writes is read
// within its time limit; past the limit it is killed.
class Child {
 public:
  Child(const std::string& path, const char* library, double limit)
      : path_(path), library_(library), limit_(limit),
        deadline_(std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(limit))) {}
  ~Child() {
    if (in_ >= 0) ::close(in_);
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      reap();
    }
  }
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  // Starts `work` in the child; false (nothing started) where no pipe or process could be made.
  bool start(const std::function<void(int)>& work) {
    int ends[2];
    if (::pipe2(ends, O_CLOEXEC) != 0) return false;
    pid_ = forkOutsideHdf5();
    if (pid_ < 0) {
      ::close(ends[0]);
      ::close(ends[1]);
      return false;
    }
    if (pid_ == 0) {
      ::close(ends[0]);
      runChild(ends[1], work);
    }
    ::close(ends[1]);
    in_ = ends[0];
    return true;
  }

  // All of `bytes` from the child; false when it ended (or was killed at its time limit) first.
  bool read(void* data, std::size_t bytes) {
    char* at = static_cast<char*>(data);
    while (bytes > 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline_ - std::chrono::steady_clock::now());
      if (left.count() <= 0) {
        ::kill(pid_, SIGKILL);
        timedOut_ = true;
        return false;
      }
      pollfd ready{in_, POLLIN, 0};
      const int n = ::poll(&ready, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1000)));
      if (n < 0 && errno != EINTR) return false;
      if (n <= 0) continue;
      const ssize_t got = ::read(in_, at, bytes);
      if (got == 0) return false;  // the child ended without a word: it crashed or exited
      if (got < 0) {
        if (errno != EINTR) return false;
        continue;
      }
      at += got;
      bytes -= static_cast<std::size_t>(got);
    }
    return true;
  }

  std::optional<std::uint64_t> readNumber() {
    std::uint64_t value = 0;
    return read(&value, sizeof value) ? std::optional(value) : std::nullopt;
  }

  std::optional<std::string> readText() {
    const std::optional<std::uint64_t> length = readNumber();
    if (!length || *length > kMaxMessageBytes) return std::nullopt;
    std::string text(*length, '\0');
    return read(text.data(), text.size()) ? std::optional(std::move(text)) : std::nullopt;
  }

  // After the outcome byte kFinished: returns. Otherwise throws what the child's end means.
  void finish(std::optional<char> outcome) {
    if (outcome == kRefused) throwRefusal();
    ::close(in_);
    in_ = -1;
    const int status = reap();
    const std::string who = std::string("the ") + library_ + " library";
    if (timedOut_) {
      throw InputError(path_, who + " did not finish reading it in " + seconds(limit_) + " s: the file is damaged");
    }
    if (outcome == kFinished) return;
    if (outcome == kOutOfMemory) {
      throw InputError(path_, who + " needed more than " + std::to_string(kMemoryLimitBytes >> 30) +
                                  " GiB of memory to read it: the file is damaged");
    }
    if (WIFSIGNALED(status)) {
      throw InputError(path_, who + " crashed reading it (" + signalName(WTERMSIG(status)) + "): the file is damaged");
    }
    throw InputError(path_, who + " stopped reading it (exit status " + std::to_string(WEXITSTATUS(status)) +
                                "): the file is damaged");
  }

 private:
  [[noreturn]] void throwRefusal() {
    const std::optional<std::string> path = readText();
    const std::optional<std::uint64_t> line = readNumber();
    const std::optional<std::uint64_t> column = readNumber();
    const std::optional<std::string> reason = readText();
    if (!path || !line || !column || !reason) finish(std::nullopt);  // cut off: says how the child ended
    throw InputError(*path, *line, *column, *reason);
  }

  int reap() {
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
    return status;
  }

  std::string path_;
  const char* library_;
  double limit_;
  std::chrono::steady_clock::time_point deadline_;
  pid_t pid_ = -1;
  int in_ = -1;
  bool timedOut_ = false;
};

double timeLimit(std::uint64_t sampleBytes = 0) {
  if (testTimeLimit.load() > 0) return testTimeLimit.load();
  return kTimeLimitSeconds + static_cast<double>(sampleBytes) / kSampleBytesPerSecond;
}

}  // namespace

void setDatasetChildFaultForTests(DatasetChildFault fault, double timeLimit) {
  testFault = fault;
  testTimeLimit = timeLimit;
}

void samplesAboutToBeRead() {
  if (inChild && testFault.load() == DatasetChildFault::crashReadingSamples) ::abort();
}

void readHeadersInChild(const std::string& path, const char* library, const std::function<void()>& readHeaders) {
  const auto work = [&](int) {
    try {
      readHeaders();
    } catch (const std::bad_alloc&) {
      throw;
    } catch (...) {  // the library's own refusal: the parent meets it again, with its message
    }
  };
  if (testFault.load() == DatasetChildFault::noChild) return work(-1);  // the fuzzers: here, where they see it
  Child child(path, library, timeLimit());
  if (!child.start(work)) return;  // no child: the caller reads the file itself, as before
  char outcome = 0;
  child.finish(child.read(&outcome, 1) ? std::optional(outcome) : std::nullopt);
}

std::vector<double> readSamplesInChild(const std::string& path, const char* library, std::size_t count,
                                       const std::function<void(const SampleBlockSink&)>& readSamples) {
  std::vector<double> samples;
  samples.reserve(count);
  const auto keep = [&](std::span<const double> block) {
    if (block.size() > count - samples.size()) throw InputError(path, "holds more samples than its header says");
    samples.insert(samples.end(), block.begin(), block.end());
  };
  Child child(path, library, timeLimit(count * sizeof(double)));
  const bool started = testFault.load() != DatasetChildFault::noChild && child.start([&](int out) {
    readSamples([out](std::span<const double> block) {
      writeAll(out, &kSamples, 1);
      writeNumber(out, block.size());
      writeAll(out, block.data(), block.size_bytes());
    });
  });
  if (!started) {
    readSamples(keep);  // no child: read here, as before
  } else {
    for (;;) {
      char outcome = 0;
      if (!child.read(&outcome, 1)) child.finish(std::nullopt);  // throws: how the child ended
      if (outcome != kSamples) {
        child.finish(outcome);
        break;
      }
      const std::optional<std::uint64_t> n = child.readNumber();
      if (!n) child.finish(std::nullopt);
      if (*n > count - samples.size()) throw InputError(path, "holds more samples than its header says");
      const std::size_t at = samples.size();
      samples.resize(at + *n);
      if (!child.read(samples.data() + at, *n * sizeof(double))) child.finish(std::nullopt);
    }
  }
  if (samples.size() != count) {
    throw InputError(path, "holds " + std::to_string(samples.size()) + " samples, fewer than its header's " +
                               std::to_string(count) + " (the file is damaged)");
  }
  return samples;
}

}  // namespace siglab
