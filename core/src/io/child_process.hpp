#pragma once
// A child process that reads an untrusted file with a library (libhdf5, matio) and writes what it
// read up a pipe, and the parent's end of that pipe (dataset_child.cpp). A crash, a hang past the
// time limit or running out of memory in the child is an InputError naming the file in the parent;
// the parent's waits end with Cancelled when the work is cancelled (cancel_waits.hpp).
#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace siglab::detail {

// What a child writes: messages, each a kind byte and what follows it; the last is its outcome
// (kFinished, kOutOfMemory, kRefused), unless it crashed.
constexpr char kFinished = 'f';     // done (headers: read, or the library refused the file itself)
constexpr char kOutOfMemory = 'm';  // its memory limit was reached
constexpr char kRefused = 'e';      // an InputError: its path, line, column and reason follow
constexpr char kSamples = 'd';      // a block of samples: its count (uint64) and its float64 values follow
constexpr char kDescription = 'h';  // what the child found before any samples (a stream's shape, a listing)

// In the child: all of `bytes` up the pipe `out`, or the child ends (its parent is gone).
void writeToParent(int out, const void* data, std::size_t bytes);
void writeNumberToParent(int out, std::uint64_t value);
void writeTextToParent(int out, const std::string& text);

// The parent's end of a child process reading `path` with `library` ("HDF5", "matio").
class ChildProcess {
 public:
  // `limit`: the seconds the child has for what the parent next waits for (restartClock).
  ChildProcess(std::string path, const char* library, double limit);
  ~ChildProcess();  // kills the child where it still runs
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Starts `work` in the child, handed the pipe's writing end; false (nothing started) where no
  // pipe or process could be made. An InputError or std::bad_alloc `work` throws is sent to the
  // parent; anything else ends the child without its outcome.
  bool start(const std::function<void(int)>& work);

  // From now on the child has `limit` seconds for what the parent waits for next.
  void restartClock(double limit);

  // All of `bytes` from the child; false when it ended (or was killed at its time limit) first.
  // Throws Cancelled (the child killed) when the work is cancelled.
  bool read(void* data, std::size_t bytes);
  std::optional<std::uint64_t> readNumber();
  std::optional<std::string> readText(std::size_t maxBytes = std::size_t{1} << 16);

  // The next message's kind, or nullopt when the child ended (or was killed) before sending one.
  std::optional<char> readKind();

  // After the outcome kFinished: returns. Otherwise (another kind, or nullopt: the child's end
  // without a word) throws what the child's end means.
  void finish(std::optional<char> outcome);

  const std::string& path() const { return path_; }

 private:
  [[noreturn]] void throwRefusal();
  int reap();

  std::string path_;
  const char* library_;
  double limit_;
  std::int64_t deadlineNs_ = 0;  // steady clock
  pid_t pid_ = -1;
  int in_ = -1;
  bool timedOut_ = false;
};

// The child's time limit: 20 s, and more for `sampleBytes` to read (20 MB/s); the tests' own where set.
double childTimeLimit(std::uint64_t sampleBytes = 0);

// Whether the tests asked for no child (the fuzz targets' own setting): the work runs in this process.
bool childProcessesOff();

}  // namespace siglab::detail
