// The parallel block scan of sos_filter.hpp.
#include <thread>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "parallel_range.hpp"
#include "siglab/sos_filter.hpp"
#include "siglab/work_progress.hpp"
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

// Whether piece position i is one of keep.whole's (the few that meet one segment: `near`).
bool inWhole(std::span<const detail::IndexRange> near, std::int64_t i) {
  return std::any_of(near.begin(), near.end(), [&](detail::IndexRange w) { return w.begin <= i && i < w.end; });
}

// Sections that do not decay: the recursion itself, the state carried.
void recursionPiece(const Sections& sections, const double* x, double* y, std::int64_t n, std::ptrdiff_t stride,
                    detail::ScanCarry& carry, WorkProgress& work, const detail::ScanKeep* keep) {
  const std::size_t count = sections.size();
  for (std::int64_t i = 0; i < n; ++i) carry.inputSoFar = std::max(carry.inputSoFar, std::abs(x[i * stride]));
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
    for (std::int64_t b = first; b <= last; ++b) {
      const IndexRange r = segment(b);
      double m = 0;
      for (std::int64_t i = r.begin; i < r.end; ++i) m = std::max(m, std::abs(x[i * stride]));
      blockMax[static_cast<std::size_t>(b)] = m;
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
  }
  work.throwIfCancelled();
  // 2. Serially: carry the true state into each segment and add its decaying zero-input response
  // until it is negligible against the segment's own input so far (max |x| from its start), not the
  // signal's peak: a spike before a cut is then carried until it fades below the quieter signal
  // after it, as the recursion carries it. A floor keeps an all-zero segment out of subnormals:
  // 1e-290, or eps times the state bound of the pass's input before the segment where that is
  // smaller (so the stated bound still holds); both known to a stream when it gets there.
  const double eps = std::numeric_limits<double>::epsilon();
  std::vector<double> floor(states);
  SosState carried = carry.state;
  for (std::int64_t b = 0; b < blocks; ++b) {
    const IndexRange r = segment(b);
    if (b == 0 && carry.first) {
      carried = endState[0];
    } else {
      const SosMagnitudes magnitudes = sosMagnitudes(gains, carry.inputSoFar, carry.maxAbsInitial);
      for (std::size_t k = 0; k < states; ++k) floor[k] = std::min(1e-290, eps * magnitudes.state[k]);
      SosState z = carried;
      bool faded = false;
      double local = 0;
      std::vector<IndexRange> near;
      if (keep) {
        std::copy_if(keep->whole.begin(), keep->whole.end(), std::back_inserter(near),
                     [&](IndexRange w) { return w.begin < r.end && r.begin < w.end; });
      }
      for (std::int64_t i = r.begin; i < r.end && !faded; ++i) {
        // In place (the backward pass) x already holds the segment's outputs: capped by its input's peak.
        local = std::min(std::max(local, std::abs(x[i * stride])), blockMax[static_cast<std::size_t>(b)]);
        const double response = sosStep(sections.data(), count, z.data(), 0.0);
        if (!keep) {
          y[i * stride] += response;
        } else {
          const std::uint64_t p = keep->at + static_cast<std::uint64_t>(i);
          if (p % keep->q == 0) keep->kept[p / keep->q] += response;
          if (!near.empty() && inWhole(near, i)) y[i] += response;
        }
        faded = true;
        for (std::size_t k = 0; k < states && faded; ++k) {
          faded = std::abs(z[k]) <= std::max(floor[k], eps * gains.stateFromInput[k] * local);
        }
      }
      carried = endState[static_cast<std::size_t>(b)];
      if (!faded) {
        for (std::size_t k = 0; k < states; ++k) carried[k] += z[k];
      }
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
