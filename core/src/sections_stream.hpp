#pragma once
// A sections (Butterworth) stage of a streamed chain as a stream, in memory that does not grow with
// the signal: the serial recursion itself (cpu-serial's sosfilt / sosfiltfilt), step for step in
// the same order, so the same bits as in memory. Causal: block by block, each section's state
// carried. Zero phase (scipy's sosfiltfilt): the forward pass over the odd extension block by block
// into an unlinked spool file, the last padlen + 1 inputs kept for the right extension; then the
// backward pass reads the spool in reverse blocks and writes each result back where it came from;
// then the spool is handed out in order. A float32 run narrows the input, filters in float64 and
// rounds each output once, as the in-memory run does.
//
// With `blockScan` (where auto takes cpu-parallel for the sections) each pass runs the block scan
// instead (sos_segment_scan.hpp) on blocks of whole segments, its carry kept between them: the bits
// of cpu-parallel's in-memory run, within its bound (sosKindTolerance) of the recursion.
//
// Verification: none apart. This stream IS cpu-serial's computation (the engine the in-memory
// checks of every other engine recompute against), so a second serial pass would compare the
// recursion with itself; the run reports the stage as not separately verified and says why (its
// engine's why-line). Its bits equalling the in-memory reference for every block size, length and
// sample type is what tests/core/sections_stream_test.cpp checks. The stages around it are
// verified block by block as ever.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "siglab/filter_spec.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/io/sample_type.hpp"
#include "siglab/progress.hpp"
#include "siglab/sos_filter.hpp"
#include "sos_segment_scan.hpp"

namespace siglab::detail {

class SectionsStream final : public SampleStream {
 public:
  // `upstream` outlives this; `name`: the input, for a sample float32 cannot hold and spool errors.
  // `progress`: its cancel is looked at every block; zero phase reports its passes to it (the
  // first read runs both).
  SectionsStream(SampleStream& upstream, const FilterSpec& spec, SampleType type, std::string name,
                 std::size_t blockSamples, Progress progress, bool blockScan = false);
  ~SectionsStream() override;
  SectionsStream(const SectionsStream&) = delete;
  SectionsStream& operator=(const SectionsStream&) = delete;

  std::size_t read(std::span<double> out) override;
  std::optional<std::uint64_t> knownSize() const override { return upstream_.knownSize(); }
  std::optional<double> sampleRate() const override { return upstream_.sampleRate(); }
  double fractionRead() const override;
  // Time spent filtering (zero phase: both passes with their spool reads and writes), and blocks.
  double filterMs() const { return filterMs_; }
  std::size_t blocks() const { return blocks_; }

 private:
  std::size_t readInput(std::span<double> block);  // the next inputs, narrowed in float32
  void produceCausal();
  void filterZeroPhase();  // both passes; the result left in the spool
  void forwardIntoSpool(double* x, std::size_t count);
  void produceFromSpool();
  void spoolRead(double* at, std::size_t count, std::uint64_t first) const;
  void spoolWrite(const double* at, std::size_t count, std::uint64_t first) const;
  void roundOutputs();
  // The next `count` samples of a pass at x into y (stride -1: backward from them; y may be x, as
  // in the in-memory run: the scan's carry looks at x): the recursion, or the scan with `carry`.
  void filterInto(const double* x, double* y, std::size_t count, std::ptrdiff_t stride, detail::ScanCarry& carry);

  SampleStream& upstream_;
  Sections sections_;
  bool zeroPhase_;
  bool float32_;
  std::string name_;
  std::size_t block_;
  Progress progress_;
  SosState state_;
  bool blockScan_;
  SosGains gains_;         // the block scan's only
  detail::ScanCarry forward_, backward_;
  std::uint64_t inputs_ = 0;   // inputs read so far
  bool upstreamEnded_ = false;
  std::vector<double> buffer_;
  std::vector<float> narrow_;
  std::vector<double> outputs_;
  std::size_t handedOut_ = 0;
  double filterMs_ = 0.0;
  std::size_t blocks_ = 0;
  bool ended_ = false;
  // Zero phase only.
  int spool_ = -1;
  std::string spoolFolder_;  // for messages ($TMPDIR, else /var/tmp, else /tmp)
  bool filtered_ = false;
  std::uint64_t backwardDone_ = 0;
  std::uint64_t served_ = 0;
  std::size_t edge_ = 0;      // sosfiltfilt's padlen
  std::vector<double> tail_;  // the last padlen + 1 inputs, for the right extension
};

}  // namespace siglab::detail
