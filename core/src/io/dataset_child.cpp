// HDF5 and MAT files opened first in a child process (dataset_formats.hpp's readHeadersInChild),
// and their samples read there too (readSamplesInChild; HDF5 block by block, child_channel_stream.cpp):
// libhdf5 and matio were fuzzed, but damage the fuzzers did not reach can still crash or hang them,
// or make them read past their buffers, and only a separate process turns that into an error the
// program survives.
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

#include "child_process.hpp"
#include "dataset_formats.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/dataset_child.hpp"
#include "waiting_io.hpp"

#if defined(__SANITIZE_ADDRESS__)
#define SIGLAB_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SIGLAB_ADDRESS_SANITIZER 1
#endif
#endif
#ifdef SIGLAB_ADDRESS_SANITIZER
#include <sanitizer/common_interface_defs.h>
#endif

namespace siglab {
namespace {

constexpr double kTimeLimitSeconds = 20;
constexpr double kSampleBytesPerSecond = 20e6;  // samples read in the child: the limit grows with their size
constexpr std::uint64_t kMemoryLimitBytes = std::uint64_t{4} << 30;  // beyond what the process already maps
constexpr int kPipeBytes = 1 << 20;  // fewer, larger writes of samples (the system's default is 64 KiB)
constexpr int kLookEveryMs = 20;     // how often a wait looks at the cancel flags
constexpr std::size_t kMaxMessageBytes = 1 << 16;

std::atomic<DatasetChildFault> testFault{DatasetChildFault::none};
std::atomic<double> testTimeLimit{0};
bool inChild = false;  // set in the child process only

#ifdef SIGLAB_ADDRESS_SANITIZER
constexpr bool kAddressSanitizer = true;
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

void writeRefusal(int out, const InputError& error) {
  const std::string what = error.what();
  const std::size_t colon = what.find(": ", error.path().size());  // after "path[:line[:column]]"
  detail::writeToParent(out, &detail::kRefused, 1);
  detail::writeTextToParent(out, error.path());
  detail::writeNumberToParent(out, error.line());
  detail::writeNumberToParent(out, error.column());
  detail::writeTextToParent(out, (colon == std::string::npos ? what : what.substr(colon + 2)).substr(0, kMaxMessageBytes));
}

[[noreturn]] void runChild(int out, const std::function<void(int)>& work) {
  inChild = true;
#ifdef SIGLAB_ADDRESS_SANITIZER
  // A memory error the library makes here is the parent's error message; under libFuzzer it is
  // not the fuzzer's finding either (its death callback would save the input as a crash).
  __sanitizer_set_death_callback(nullptr);
#endif
  limitMemory();
  const rlimit noCore{0, 0};  // a crash here is the parent's error message, not a core file
  ::setrlimit(RLIMIT_CORE, &noCore);
  switch (testFault.load()) {
    case DatasetChildFault::crash: ::abort();
    case DatasetChildFault::hang: for (;;) ::pause();
    case DatasetChildFault::crashReadingSamples:
    case DatasetChildFault::crashReadingLaterSamples:
    case DatasetChildFault::none:
    case DatasetChildFault::noChild: break;
  }
  char outcome = detail::kFinished;
  try {
    work(out);
  } catch (const std::bad_alloc&) {
    outcome = detail::kOutOfMemory;
  } catch (const InputError& error) {
    writeRefusal(out, error);
    ::_exit(0);
  } catch (...) {
    ::_exit(1);  // the parent says the library stopped reading it
  }
  detail::writeToParent(out, &outcome, 1);
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

std::int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

namespace detail {

void writeToParent(int out, const void* data, std::size_t bytes) {
  const char* at = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(out, at, bytes);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) ::_exit(1);
    at += n;
    bytes -= static_cast<std::size_t>(n);
  }
}

void writeNumberToParent(int out, std::uint64_t value) { writeToParent(out, &value, sizeof value); }

void writeTextToParent(int out, const std::string& text) {
  writeNumberToParent(out, text.size());
  writeToParent(out, text.data(), text.size());
}

ChildProcess::ChildProcess(std::string path, const char* library, double limit)
    : path_(std::move(path)), library_(library), limit_(limit) {
  restartClock(limit);
}

ChildProcess::~ChildProcess() {
  if (in_ >= 0) ::close(in_);
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    reap();
  }
}

bool ChildProcess::start(const std::function<void(int)>& work) {
  int ends[2];
  if (::pipe2(ends, O_CLOEXEC) != 0) return false;
  ::fcntl(ends[1], F_SETPIPE_SZ, kPipeBytes);  // the default where refused
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

void ChildProcess::restartClock(double limit) {
  limit_ = limit;
  deadlineNs_ = nowNs() + static_cast<std::int64_t>(limit * 1e9);
}

bool ChildProcess::read(void* data, std::size_t bytes) {
  char* at = static_cast<char*>(data);
  while (bytes > 0) {
    const std::int64_t leftMs = (deadlineNs_ - nowNs()) / 1'000'000;
    if (leftMs <= 0) {
      ::kill(pid_, SIGKILL);
      timedOut_ = true;
      return false;
    }
    throwIfWaitCancelled();  // the destructor ends the child
    pollfd ready{in_, POLLIN, 0};
    const int n = ::poll(&ready, 1, static_cast<int>(std::min<std::int64_t>(leftMs, kLookEveryMs)));
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

std::optional<std::uint64_t> ChildProcess::readNumber() {
  std::uint64_t value = 0;
  return read(&value, sizeof value) ? std::optional(value) : std::nullopt;
}

std::optional<std::string> ChildProcess::readText(std::size_t maxBytes) {
  const std::optional<std::uint64_t> length = readNumber();
  if (!length || *length > maxBytes) return std::nullopt;
  std::string text(*length, '\0');
  return read(text.data(), text.size()) ? std::optional(std::move(text)) : std::nullopt;
}

std::optional<char> ChildProcess::readKind() {
  char kind = 0;
  return read(&kind, 1) ? std::optional(kind) : std::nullopt;
}

void ChildProcess::finish(std::optional<char> outcome) {
  if (outcome == kRefused) throwRefusal();
  if (in_ >= 0) ::close(in_);
  in_ = -1;
  if (outcome != kFinished && pid_ > 0 && !timedOut_) ::kill(pid_, SIGKILL);  // a word out of turn: it is not heard further
  const int status = pid_ > 0 ? reap() : 0;
  const std::string who = std::string("the ") + library_ + " library";
  if (timedOut_) {
    throw InputError(path_, who + " did not finish reading it in " + seconds(limit_) + " s: the file is damaged");
  }
  if (outcome == kFinished) return;
  if (outcome == kOutOfMemory) {
    throw InputError(path_, who + " needed more than " + std::to_string(kMemoryLimitBytes >> 30) +
                                " GiB of memory to read it: the file is damaged");
  }
  if (outcome) throw InputError(path_, who + " sent what SigLab did not expect: the file is damaged");
  if (WIFSIGNALED(status)) {
    throw InputError(path_, who + " crashed reading it (" + signalName(WTERMSIG(status)) + "): the file is damaged");
  }
  throw InputError(path_, who + " stopped reading it (exit status " + std::to_string(WEXITSTATUS(status)) +
                              "): the file is damaged");
}

void ChildProcess::throwRefusal() {
  const std::optional<std::string> path = readText();
  const std::optional<std::uint64_t> line = readNumber();
  const std::optional<std::uint64_t> column = readNumber();
  const std::optional<std::string> reason = readText();
  if (!path || !line || !column || !reason) finish(std::nullopt);  // cut off: says how the child ended
  // The child names the file (or FILE:NAME); one whose memory the library damaged may not.
  if (!path->starts_with(path_)) finish('?');
  throw InputError(*path, *line, *column, *reason);
}

int ChildProcess::reap() {
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return status;
}

double childTimeLimit(std::uint64_t sampleBytes) {
  if (testTimeLimit.load() > 0) return testTimeLimit.load();
  return kTimeLimitSeconds + static_cast<double>(sampleBytes) / kSampleBytesPerSecond;
}

bool childProcessesOff() { return testFault.load() == DatasetChildFault::noChild; }

}  // namespace detail

void setDatasetChildFaultForTests(DatasetChildFault fault, double timeLimit) {
  testFault = fault;
  testTimeLimit = timeLimit;
}

void samplesAboutToBeRead(bool first) {
  const DatasetChildFault fault = testFault.load();
  if (inChild && fault == (first ? DatasetChildFault::crashReadingSamples : DatasetChildFault::crashReadingLaterSamples)) {
    ::abort();
  }
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
  if (detail::childProcessesOff()) return work(-1);  // the fuzzers: here, where they see it
  detail::ChildProcess child(path, library, detail::childTimeLimit());
  if (!child.start(work)) return;  // no child: the caller reads the file itself, as before
  child.finish(child.readKind());
}

std::vector<DatasetEntry> listInChild(const std::string& path, const char* library,
                                      const std::function<std::vector<DatasetEntry>()>& list) {
  constexpr std::uint64_t kMaxEntries = 1 << 20;
  detail::ChildProcess child(path, library, detail::childTimeLimit());
  if (detail::childProcessesOff() || !child.start([&](int out) {
        const std::vector<DatasetEntry> entries = list();
        detail::writeToParent(out, &detail::kDescription, 1);
        detail::writeNumberToParent(out, entries.size());
        for (const DatasetEntry& e : entries) {
          detail::writeTextToParent(out, e.name);
          detail::writeNumberToParent(out, e.shape.size());
          for (const std::uint64_t d : e.shape) detail::writeNumberToParent(out, d);
          detail::writeTextToParent(out, e.type);
          detail::writeNumberToParent(out, e.frames);
          detail::writeNumberToParent(out, e.channels);
        }
      })) {
    return list();  // no child: listed here, as before
  }
  const std::optional<char> kind = child.readKind();
  if (kind != detail::kDescription) child.finish(kind);  // throws
  const std::optional<std::uint64_t> count = child.readNumber();
  if (!count || *count > kMaxEntries) child.finish(std::nullopt);
  std::vector<DatasetEntry> entries(*count);
  for (DatasetEntry& e : entries) {
    const std::optional<std::string> name = child.readText();
    const std::optional<std::uint64_t> rank = child.readNumber();
    if (!name || !rank || *rank > 2) child.finish(std::nullopt);
    e.name = *name;
    for (std::uint64_t i = 0; i < *rank; ++i) {
      const std::optional<std::uint64_t> d = child.readNumber();
      if (!d) child.finish(std::nullopt);
      e.shape.push_back(*d);
    }
    const std::optional<std::string> type = child.readText();
    const std::optional<std::uint64_t> frames = child.readNumber();
    const std::optional<std::uint64_t> channels = child.readNumber();
    if (!type || !frames || !channels) child.finish(std::nullopt);
    e.type = *type;
    e.frames = *frames;
    e.channels = *channels;
  }
  child.finish(child.readKind());
  return entries;
}

std::vector<double> readSamplesInChild(const std::string& path, const char* library, std::size_t count,
                                       const std::function<void(const SampleBlockSink&)>& readSamples) {
  std::vector<double> samples;
  samples.reserve(count);
  const auto keep = [&](std::span<const double> block) {
    if (block.size() > count - samples.size()) throw InputError(path, "holds more samples than its header says");
    samples.insert(samples.end(), block.begin(), block.end());
  };
  detail::ChildProcess child(path, library, detail::childTimeLimit(count * sizeof(double)));
  const bool started = !detail::childProcessesOff() && child.start([&](int out) {
    readSamples([out](std::span<const double> block) {
      detail::writeToParent(out, &detail::kSamples, 1);
      detail::writeNumberToParent(out, block.size());
      detail::writeToParent(out, block.data(), block.size_bytes());
    });
  });
  if (!started) {
    readSamples(keep);  // no child: read here, as before
  } else {
    for (;;) {
      const std::optional<char> kind = child.readKind();
      if (kind != detail::kSamples) {
        child.finish(kind);  // throws unless finished
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
