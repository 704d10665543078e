#pragma once
// The threads of the streaming filter: a reader ahead of the filter and a writer behind it, each
// with a few buffers that go round (a fresh buffer a block would cost its page faults every time).
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

#include "hand_off.hpp"
#include "siglab/io/sample_sink.hpp"
#include "siglab/io/sample_stream.hpp"

namespace siglab::detail {

// Blocks in flight on each side of the filter: one being filled (or written), one waiting.
inline constexpr std::size_t kBlocksInFlight = 2;

struct InputBlock {
  std::vector<double> samples;  // the 2r samples the block before ended with, then the fresh ones
  std::size_t fresh = 0;        // fewer than a block: the signal ended
  double fractionRead = 0.0;
};

// Reads `in` on its own thread, a block of `block` fresh samples at a time behind `carry` (the 2r
// samples before them); `pending` (samples already read) come first.
class BlockReader {
 public:
  BlockReader(SampleStream& in, std::vector<double> carry, std::vector<double> pending, std::size_t block);
  BlockReader(const BlockReader&) = delete;
  BlockReader& operator=(const BlockReader&) = delete;
  ~BlockReader();  // stops the thread (a read under way ends first)

  // The next block, in order; rethrows the read's error (InputError) where it happened.
  InputBlock next();
  void recycle(std::vector<double> samples);

 private:
  struct Filled {
    InputBlock block;
    std::exception_ptr error;
  };
  void run(std::vector<double> carry, std::vector<double> pending);

  SampleStream& in_;
  std::size_t block_;
  HandOff<std::vector<double>> free_{kBlocksInFlight + 1};
  HandOff<Filled> filled_{kBlocksInFlight};
  std::thread thread_;
};

// Writes blocks to `out` on its own thread, in order.
class BlockWriter {
 public:
  explicit BlockWriter(SampleSink& out);
  BlockWriter(const BlockWriter&) = delete;
  BlockWriter& operator=(const BlockWriter&) = delete;
  ~BlockWriter();  // without finish(): stops, dropping what was not written yet

  std::vector<double> buffer();  // one to fill and hand to write(); rethrows a write's error
  void write(std::vector<double> samples, std::size_t from, std::size_t count);
  void finish();  // everything handed over written; rethrows a write's error

 private:
  struct Pending {
    std::vector<double> samples;
    std::size_t from = 0, count = 0;
  };
  void run();
  void rethrowIfFailed();

  SampleSink& out_;
  HandOff<std::vector<double>> free_{kBlocksInFlight + 1};
  HandOff<Pending> work_{kBlocksInFlight};
  std::exception_ptr error_;  // set by the thread before it closes the queues
  std::atomic<bool> stopping_{false};  // set before the queues close
  std::thread thread_;
};

// While alive, OpenMP regions started on this thread use the cores that the reader and the writer
// leave (at least one). On 2 cores the filter then runs on one, instead of a second filter thread
// spinning between blocks while the reader and the writer wait for a core (perf: a fifth of the
// time of a raw-to-raw stream went to libgomp's wait loop).
class FilterThreads {
 public:
  FilterThreads();
  FilterThreads(const FilterThreads&) = delete;
  FilterThreads& operator=(const FilterThreads&) = delete;
  ~FilterThreads();

 private:
  int before_ = 0;
};

}  // namespace siglab::detail
