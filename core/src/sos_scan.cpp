// The parallel block scan of sos_filter.hpp.
#include <thread>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel_range.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/work_progress.hpp"
#include "sos_segment_carry.hpp"
#include "sos_segment_scan.hpp"
#include "sos_step.hpp"

namespace siglab {
namespace {

double maxAbsOf(std::span<const double> v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

// The outputs of one task's segments, where only every q-th is kept: a core's own, reused.
std::vector<double>& taskScratch(std::size_t samples) {
  thread_local std::vector<double> scratch;
  if (scratch.size() < samples) scratch.resize(samples);
  return scratch;
}

// Outputs [from, from + count) of the piece, computed into `scratch`: every q-th into keep.kept, and
// those in keep.whole into y.
void keepEvery(const detail::ScanKeep& keep, std::int64_t from, const double* scratch, std::int64_t count, double* y) {
  const std::uint64_t first = keep.at + static_cast<std::uint64_t>(from);
  for (std::uint64_t p = (first + keep.q - 1) / keep.q * keep.q; p < first + static_cast<std::uint64_t>(count); p += keep.q) {
    keep.kept[p / keep.q] = scratch[p - first];
  }
  for (const detail::IndexRange w : keep.whole) {
    const std::int64_t begin = std::max(w.begin, from), end = std::min(w.end, from + count);
    if (begin < end) std::copy(scratch + (begin - from), scratch + (end - from), y + begin);
  }
}

// Adds a segment's carried response to its outputs: y, or with `keep` the kept ones and those of keep.whole.
void addResponse(const detail::SegmentResponse& response, std::ptrdiff_t stride, double* y, const detail::ScanKeep* keep) {
  const auto value = [&](std::int64_t i) { return response.values[static_cast<std::size_t>(i - response.begin)]; };
  if (!keep) {
    for (std::int64_t i = response.begin; i < response.at; ++i) y[i * stride] += value(i);
    return;
  }
  for (std::uint64_t p = (keep->at + static_cast<std::uint64_t>(response.begin) + keep->q - 1) / keep->q * keep->q;
       p < keep->at + static_cast<std::uint64_t>(response.at); p += keep->q) {
    keep->kept[p / keep->q] += value(static_cast<std::int64_t>(p - keep->at));
  }
  for (const detail::IndexRange w : keep->whole) {
    for (std::int64_t i = std::max(w.begin, response.begin); i < std::min(w.end, response.at); ++i) y[i] += value(i);
  }
}

// Sections that do not decay: the recursion itself, the state carried.
void recursionPiece(const Sections& sections, const double* x, double* y, std::int64_t n, std::ptrdiff_t stride,
                    detail::ScanCarry& carry, WorkProgress& work, const detail::ScanKeep* keep) {
  const std::size_t count = sections.size();
  carry.inputSoFar = std::max(carry.inputSoFar, detail::maxAbsOf(x, stride, n));
  for (std::int64_t from = 0; from < n; from += detail::kScanSegment) {
    const std::int64_t c = std::min(detail::kScanSegment, n - from);
    double* to = keep ? taskScratch(static_cast<std::size_t>(c)).data() : y + from * stride;
    if (!detail::sosRangeChecked(sections.data(), count, carry.state.data(), x + from * stride, to, stride,
                                 static_cast<std::size_t>(c), work)) {
      work.throwIfCancelled();
    }
    if (keep) keepEvery(*keep, from, to, c, y);
  }
  carry.first = false;
}

}  // namespace

namespace detail {

void sosScanPiece(const Sections& sections, const SosGains& gains, const double* x, double* y, std::int64_t n,
                  std::ptrdiff_t stride, ScanCarry& carry, WorkProgress& work, const ScanKeep* keep) {
  if (n <= 0) return;
  if (keep && stride != 1) throw std::invalid_argument("sosScanPiece: only every q-th output of a forward pass is kept");
  if (!gains.decayed) return recursionPiece(sections, x, y, n, stride, carry, work, keep);
  const std::size_t count = sections.size(), states = 2 * count;
  const std::int64_t blocks = (n + kScanSegment - 1) / kScanSegment;
  const auto segment = [&](std::int64_t b) { return IndexRange{b * kScanSegment, std::min(n, (b + 1) * kScanSegment)}; };
  std::vector<SosState> endState(static_cast<std::size_t>(blocks), SosState(states, 0.0));
  if (carry.first) endState[0] = carry.state;
  std::vector<double> blockMax(static_cast<std::size_t>(blocks), 0.0);
  // 1. Every segment from zero state (the pass's first from its start state) in parallel; where
  // there are segments enough for every core to take several (sosBlocksAtOnce, else two), that many
  // at a time, their wavefronts interleaved (one segment's chain of steps leaves a core's units
  // idle), then the rest of the longer ones alone. The same bits however they are grouped.
  const std::int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  const auto atOnce = static_cast<std::int64_t>(sosBlocksAtOnce(count));
  const std::int64_t perTask = blocks >= atOnce * cores ? atOnce : blocks >= 2 * cores ? 2 : 1;
  const std::int64_t tasks = (blocks + perTask - 1) / perTask;
  const bool inPlace = x == y;
#pragma omp parallel for schedule(dynamic, 1) if (tasks > 1)
  for (std::int64_t task = 0; task < tasks; ++task) {
    if (work.cancelled()) continue;  // no break out of an OpenMP loop: the rest are skipped
    const std::int64_t first = task * perTask, last = std::min(blocks, first + perTask) - 1;
    double* scratch = keep ? taskScratch(static_cast<std::size_t>(perTask * kScanSegment)).data() : nullptr;
    const auto outputOf = [&](std::int64_t b, std::int64_t from) {
      return keep ? scratch + (b - first) * kScanSegment + (from - segment(b).begin) : y + from * stride;
    };
    std::int64_t common = std::numeric_limits<std::int64_t>::max();
    SosRun runs[4];
    // Each segment's input peak, for the carry: read in place before the outputs overwrite it, else
    // after the recursion, from the cache (a pass of its own reads the signal from memory).
    const auto peaks = [&] {
      for (std::int64_t b = first; b <= last; ++b) {
        const IndexRange r = segment(b);
        blockMax[static_cast<std::size_t>(b)] = maxAbsOf(x + r.begin * stride, stride, r.end - r.begin);
      }
    };
    if (inPlace) peaks();
    for (std::int64_t b = first; b <= last; ++b) {
      const IndexRange r = segment(b);
      common = std::min(common, r.end - r.begin);
      runs[b - first] = {endState[static_cast<std::size_t>(b)].data(), x + r.begin * stride, outputOf(b, r.begin)};
    }
    if (last > first) {
      sosRangesChecked(sections.data(), count, std::span<const SosRun>(runs, static_cast<std::size_t>(last - first + 1)),
                       stride, static_cast<std::size_t>(common), work);
    }
    for (std::int64_t b = first; b <= last; ++b) {
      const IndexRange r = segment(b);
      const std::int64_t from = r.begin + (last > first ? common : 0);
      if (from < r.end) {
        sosRangeChecked(sections.data(), count, endState[static_cast<std::size_t>(b)].data(), x + from * stride,
                        outputOf(b, from), stride, static_cast<std::size_t>(r.end - from), work);
      }
      if (keep) keepEvery(*keep, r.begin, outputOf(b, r.begin), r.end - r.begin, y);
    }
    if (!inPlace) peaks();
  }
  work.throwIfCancelled();
  // 2. The carry: the true state into each segment, its decaying zero-input response added to the
  // segment's first outputs until it is negligible against the segment's own input so far (max |x|
  // from its start), not the signal's peak: a spike before a cut is then carried until it fades below
  // the quieter signal after it, as the recursion carries it. A floor keeps an all-zero segment out of
  // subnormals: 1e-290, or eps times the state bound of the pass's input before the segment where
  // that is smaller (so the stated bound still holds); both known to a stream when it gets there.
  // Every response is first stepped on the cores from a guessed start (sos_segment_carry.hpp); the
  // walk after it is serial and cheap.
  std::vector<double> inputBefore(static_cast<std::size_t>(blocks));
  double before = carry.inputSoFar;
  for (std::int64_t b = 0; b < blocks; ++b) {
    inputBefore[static_cast<std::size_t>(b)] = before;
    before = std::max(before, blockMax[static_cast<std::size_t>(b)]);
  }
  const std::int64_t corrected = carry.first ? 1 : 0;  // the pass's first segment ran from its true start
  std::vector<SegmentResponse> responses(static_cast<std::size_t>(blocks));
#pragma omp parallel for schedule(dynamic, 4) if (blocks - corrected > 1)
  for (std::int64_t b = corrected; b < blocks; ++b) {
    SegmentResponse& response = responses[static_cast<std::size_t>(b)];
    const IndexRange r = segment(b);
    response.begin = r.begin;
    response.end = r.end;
    response.peak = blockMax[static_cast<std::size_t>(b)];
    response.floor = carryFloor(gains, inputBefore[static_cast<std::size_t>(b)], carry.maxAbsInitial);
    response.restart(b == 0 ? carry.state : endState[static_cast<std::size_t>(b - 1)]);
    stepResponse(response, sections, gains, x, stride, r.begin + kCarryGuessReach);
  }
  SosState carried = carry.state;
  bool guessed = true;  // the state carried into segment b is the one its response was stepped from
  for (std::int64_t b = 0; b < blocks; ++b) {
    const IndexRange r = segment(b);
    if (b == 0 && carry.first) {
      carried = endState[0];
    } else {
      SegmentResponse& response = responses[static_cast<std::size_t>(b)];
      if (!guessed) response.restart(carried);
      stepResponse(response, sections, gains, x, stride, r.end);
      addResponse(response, stride, y, keep);
      carried = endState[static_cast<std::size_t>(b)];
      if (!response.faded) {
        for (std::size_t k = 0; k < states; ++k) carried[k] += response.z[k];
      }
      guessed = response.faded;
    }
    carry.inputSoFar = std::max(carry.inputSoFar, blockMax[static_cast<std::size_t>(b)]);
  }
  carry.state = carried;
  carry.first = false;
}

}  // namespace detail

namespace {

// A whole pass at once (sosScanPiece over all of it); returns its error bound (sosScanErrorBound),
// the input's size taken at least `inputFloor`.
double scanPass(const Sections& sections, const SosGains& gains, const double* x, double* y, std::int64_t n,
                std::ptrdiff_t stride, detail::ScanCarry carry, WorkProgress& work, double inputFloor = 0.0,
                SosState* finalState = nullptr, const detail::ScanKeep* keep = nullptr) {
  const double maxAbsInitial = carry.maxAbsInitial;
  detail::sosScanPiece(sections, gains, x, y, n, stride, carry, work, keep);
  if (finalState) *finalState = carry.state;
  return sosScanErrorBound(sections, gains, std::max(inputFloor, carry.inputSoFar), maxAbsInitial);
}

}  // namespace

double sosfiltParallel(const Sections& sections, std::span<const double> in, std::span<double> out,
                       const SosState& initial, const Progress& progress) {
  if (in.size() != out.size()) throw std::invalid_argument("sosfilt: input and output sizes differ");
  const SosGains gains = sosGains(sections);
  SosState start = initial.empty() ? SosState(2 * sections.size(), 0.0) : initial;
  if (start.size() != 2 * sections.size()) throw std::invalid_argument("sosfilt: the state needs 2 values per section");
  WorkProgress work(progress, in.size());
  detail::ScanCarry carry{start, true, 0.0, maxAbsOf(start)};
  return scanPass(sections, gains, in.data(), out.data(), static_cast<std::int64_t>(in.size()), 1, std::move(carry), work);
}

double sosfiltfiltParallel(const Sections& sections, std::span<const double> in, std::span<double> out,
                           const Progress& progress) {
  if (in.size() != out.size()) throw std::invalid_argument("sosfiltfilt: input and output sizes differ");
  const auto n = static_cast<std::int64_t>(in.size());
  const auto edge = static_cast<std::int64_t>(sosfiltfiltPadLength(sections));
  if (n <= edge) {
    throw std::invalid_argument("zero-phase filtering needs more than " + std::to_string(edge) +
                                " samples (3 x (2 x sections + 1)); the signal has " + std::to_string(n));
  }
  // As sosfiltfilt: the odd extension's two edges are copies, filtered serially (they are short);
  // the signal itself is scanned from `in` into `out`, so a run holds no third signal-sized buffer.
  const SosGains gains = sosGains(sections);
  const auto e = static_cast<std::size_t>(edge), last = in.size() - 1;
  std::vector<double> head(e), tail(e);
  for (std::size_t j = 0; j < e; ++j) {
    head[j] = 2 * in[0] - in[e - j];
    tail[j] = 2 * in[last] - in[last - 1 - j];
  }
  const double headInput = maxAbsOf(head), edgeInput = std::max(headInput, maxAbsOf(tail));
  const SosState zi = sosfiltZi(sections);
  SosState z(zi.size());
  for (std::size_t k = 0; k < zi.size(); ++k) z[k] = zi[k] * head.front();
  detail::sosRange(sections.data(), sections.size(), z.data(), head.data(), head.data(), 1, e);
  SosState end;
  WorkProgress work(progress, 2 * in.size());
  // A stream knows the head's edge when it starts, the tail's only at the end: the carry's floor
  // starts from the head's (sosScanPiece), the bound takes both.
  const double forward =
      scanPass(sections, gains, in.data(), out.data(), n, 1, {z, true, headInput, 0.0}, work, edgeInput, &end);
  detail::sosRange(sections.data(), sections.size(), end.data(), tail.data(), tail.data(), 1, e);
  const double tailOutput = maxAbsOf(tail);
  for (std::size_t k = 0; k < zi.size(); ++k) z[k] = zi[k] * tail.back();
  detail::sosRange(sections.data(), sections.size(), z.data(), tail.data() + e - 1, tail.data() + e - 1, -1, e);
  const double backward =
      scanPass(sections, gains, out.data() + n - 1, out.data() + n - 1, n, -1, {z, true, tailOutput, 0.0}, work);
  return forward * gains.inputToOutput + backward;
}

std::vector<std::size_t> sosScanCuts(const Sections& sections, std::size_t samples, bool zeroPhase) {
  std::vector<std::size_t> cuts;
  if (!sosGains(sections).decayed) return cuts;
  for (auto start = static_cast<std::size_t>(detail::kScanSegment); start < samples; start += detail::kScanSegment) {
    cuts.push_back(start);
    if (zeroPhase) cuts.push_back(samples - start);  // the backward pass's block, counted from the end
  }
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

}  // namespace siglab
