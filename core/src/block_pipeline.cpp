#include "block_pipeline.hpp"

#include <algorithm>
#include <stdexcept>
#ifdef _OPENMP
#include <omp.h>
#endif

namespace siglab::detail {

BlockReader::BlockReader(SampleStream& in, std::vector<double> carry, std::vector<double> pending, std::size_t block)
    : in_(in), block_(block) {
  for (std::size_t k = 0; k < kBlocksInFlight + 1; ++k) free_.push({});
  thread_ = std::thread([this, carry = std::move(carry), pending = std::move(pending)]() mutable {
    run(std::move(carry), std::move(pending));
  });
}

BlockReader::~BlockReader() {
  free_.close();
  filled_.close();
  thread_.join();
}

void BlockReader::run(std::vector<double> carry, std::vector<double> pending) {
  std::size_t pendingAt = 0;
  while (std::optional<std::vector<double>> buffer = free_.pop()) {
    Filled filled;
    InputBlock& b = filled.block;
    b.samples = std::move(*buffer);
    try {
      b.samples.resize(carry.size() + block_);
      std::copy(carry.begin(), carry.end(), b.samples.begin());
      const std::span<double> fresh = std::span(b.samples).subspan(carry.size());
      std::size_t got = std::min(fresh.size(), pending.size() - pendingAt);
      std::copy_n(pending.begin() + static_cast<std::ptrdiff_t>(pendingAt), got, fresh.begin());
      pendingAt += got;
      while (got < fresh.size()) {
        const std::size_t n = in_.read(fresh.subspan(got));
        if (n == 0) break;
        got += n;
      }
      b.samples.resize(carry.size() + got);
      b.fresh = got;
      b.fractionRead = in_.fractionRead();
      std::copy(b.samples.end() - static_cast<std::ptrdiff_t>(carry.size()), b.samples.end(), carry.begin());
    } catch (...) {
      filled.error = std::current_exception();
    }
    const bool last = filled.error || b.fresh < block_;
    if (!filled_.push(std::move(filled)) || last) return;
  }
}

InputBlock BlockReader::next() {
  std::optional<Filled> filled = filled_.pop();
  if (!filled) throw std::logic_error("BlockReader::next after the last block");
  if (filled->error) std::rethrow_exception(filled->error);
  return std::move(filled->block);
}

void BlockReader::recycle(std::vector<double> samples) { free_.push(std::move(samples)); }

BlockWriter::BlockWriter(SampleSink& out) : out_(out) {
  for (std::size_t k = 0; k < kBlocksInFlight + 1; ++k) free_.push({});
  thread_ = std::thread([this] { run(); });
}

BlockWriter::~BlockWriter() {
  if (!thread_.joinable()) return;
  stopping_ = true;
  work_.close();
  free_.close();
  thread_.join();
}

void BlockWriter::run() {
  try {
    while (std::optional<Pending> p = work_.pop()) {
      if (stopping_) return;
      out_.write(std::span<const double>(p->samples).subspan(p->from, p->count));
      free_.push(std::move(p->samples));
    }
  } catch (...) {
    error_ = std::current_exception();
    work_.close();
    free_.close();
  }
}

void BlockWriter::rethrowIfFailed() {
  thread_.join();
  if (error_) std::rethrow_exception(error_);
  throw std::logic_error("BlockWriter: the writer stopped");
}

std::vector<double> BlockWriter::buffer() {
  std::optional<std::vector<double>> samples = free_.pop();
  if (!samples) rethrowIfFailed();
  return std::move(*samples);
}

void BlockWriter::write(std::vector<double> samples, std::size_t from, std::size_t count) {
  if (!work_.push(Pending{std::move(samples), from, count})) rethrowIfFailed();
}

void BlockWriter::finish() {
  work_.close();  // the thread writes what is queued, then ends
  thread_.join();
  if (error_) std::rethrow_exception(error_);
}

FilterThreads::FilterThreads() {
#ifdef _OPENMP
  before_ = omp_get_max_threads();
  omp_set_num_threads(std::max(1, std::min(before_, omp_get_num_procs() - 2)));
#endif
}

FilterThreads::~FilterThreads() {
#ifdef _OPENMP
  omp_set_num_threads(before_);
#endif
}

}  // namespace siglab::detail
