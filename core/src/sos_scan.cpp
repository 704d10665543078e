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
#include "sos_step.hpp"

namespace siglab {
namespace {

// A block must be long against the filter's memory, or the serial carry does all the work.
constexpr std::int64_t kMinBlock = std::int64_t{1} << 16;

double maxAbsOf(std::span<const double> v) {
  double m = 0;
  for (double x : v) m = std::max(m, std::abs(x));
  return m;
}

std::int64_t blockCount(const SosGains& gains, std::int64_t n) {
  return gains.decayed ? std::clamp<std::int64_t>(n / kMinBlock, 1, 4 * static_cast<std::int64_t>(std::max(1u, std::thread::hardware_concurrency()))) : 1;
}

// Samples x[0], x[stride], ..., x[(n-1) stride] filtered into y (y may be x) from `initial`
// (steadyStart: a state that input no larger than max(|x|, inputFloor) held forever could leave,
// such as sosfilt_zi times a sample; see sosMagnitudes). `finalState`, unless null, receives the
// state after the last sample. Its blocks are filtered in stretches of a millisecond or so, each
// added to `work`; throws Cancelled.
double scanPass(const Sections& sections, const SosGains& gains, const double* x, double* y, std::int64_t n,
                std::ptrdiff_t stride, const SosState& initial, bool steadyStart, WorkProgress& work,
                double inputFloor = 0.0, SosState* finalState = nullptr) {
  const std::size_t count = sections.size(), states = 2 * count;
  const std::int64_t blocks = blockCount(gains, n);
  std::vector<SosState> endState(static_cast<std::size_t>(blocks), SosState(states, 0.0));
  endState[0] = initial;
  std::vector<double> blockMax(static_cast<std::size_t>(blocks), 0.0);
  // 1. Every block from zero state (the first from `initial`) in parallel; where there are blocks
  // enough for every core to take several (sosBlocksAtOnce, else two), that many at a time, their
  // wavefronts interleaved (one block's chain of steps leaves a core's units idle), then the rest of
  // the longer ones alone.
  const std::int64_t cores = std::max(1u, std::thread::hardware_concurrency());
  const auto atOnce = static_cast<std::int64_t>(detail::sosBlocksAtOnce(count));
  const std::int64_t perTask = blocks >= atOnce * cores ? atOnce : blocks >= 2 * cores ? 2 : 1;
  const std::int64_t tasks = (blocks + perTask - 1) / perTask;
#pragma omp parallel for schedule(dynamic, 1) if (tasks > 1)
  for (std::int64_t task = 0; task < tasks; ++task) {
    if (work.cancelled()) continue;  // no break out of an OpenMP loop: the rest are skipped
    const std::int64_t first = task * perTask, last = std::min(blocks, first + perTask) - 1;
    std::int64_t common = std::numeric_limits<std::int64_t>::max();
    detail::SosRun runs[4];
    for (std::int64_t b = first; b <= last; ++b) {
      const detail::IndexRange r = detail::chunkOf(n, blocks, b);
      double m = 0;
      for (std::int64_t i = r.begin; i < r.end; ++i) m = std::max(m, std::abs(x[i * stride]));
      blockMax[static_cast<std::size_t>(b)] = m;
      common = std::min(common, r.end - r.begin);
      runs[b - first] = {endState[static_cast<std::size_t>(b)].data(), x + r.begin * stride, y + r.begin * stride};
    }
    if (last > first) {
      detail::sosRangesChecked(sections.data(), count, std::span<const detail::SosRun>(runs, static_cast<std::size_t>(last - first + 1)),
                               stride, static_cast<std::size_t>(common), work);
    }
    for (std::int64_t b = first; b <= last; ++b) {
      const detail::IndexRange r = detail::chunkOf(n, blocks, b);
      const std::int64_t from = r.begin + (last > first ? common : 0);
      if (from < r.end) {
        detail::sosRangeChecked(sections.data(), count, endState[static_cast<std::size_t>(b)].data(), x + from * stride,
                                y + from * stride, stride, static_cast<std::size_t>(r.end - from), work);
      }
    }
  }
  work.throwIfCancelled();
  const double maxAbsInput = std::max(inputFloor, *std::max_element(blockMax.begin(), blockMax.end()));
  const double maxAbsInitial = steadyStart ? 0.0 : maxAbsOf(initial);
  const double bound = sosScanErrorBound(sections, gains, maxAbsInput, maxAbsInitial);
  // 2. Serially: carry the true state into each block and add its decaying zero-input response until
  // it is negligible against the block's own input so far (max |x| from the block's start), not the
  // signal's peak: a spike before a cut is then carried until it fades below the quieter signal
  // after it, as the recursion carries it. A floor keeps an all-zero block out of subnormals: 1e-290,
  // or the old peak-relative threshold where that is smaller, so the stated bound still holds.
  const double eps = std::numeric_limits<double>::epsilon();
  const SosMagnitudes magnitudes = sosMagnitudes(gains, maxAbsInput, maxAbsInitial);
  std::vector<double> floor(states);
  for (std::size_t k = 0; k < states; ++k) floor[k] = std::min(1e-290, eps * magnitudes.state[k]);
  SosState carried = endState[0];
  for (std::int64_t b = 1; b < blocks; ++b) {
    const detail::IndexRange r = detail::chunkOf(n, blocks, b);
    SosState z = carried;
    bool faded = false;
    double local = 0;
    for (std::int64_t i = r.begin; i < r.end && !faded; ++i) {
      // In place (the backward pass) x already holds the block's outputs: capped by its input's peak.
      local = std::min(std::max(local, std::abs(x[i * stride])), blockMax[static_cast<std::size_t>(b)]);
      y[i * stride] += detail::sosStep(sections.data(), count, z.data(), 0.0);
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
  if (finalState) *finalState = carried;
  return bound;
}

}  // namespace

double sosfiltParallel(const Sections& sections, std::span<const double> in, std::span<double> out,
                       const SosState& initial, const Progress& progress) {
  if (in.size() != out.size()) throw std::invalid_argument("sosfilt: input and output sizes differ");
  const SosGains gains = sosGains(sections);
  SosState start = initial.empty() ? SosState(2 * sections.size(), 0.0) : initial;
  if (start.size() != 2 * sections.size()) throw std::invalid_argument("sosfilt: the state needs 2 values per section");
  WorkProgress work(progress, in.size());
  return scanPass(sections, gains, in.data(), out.data(), static_cast<std::int64_t>(in.size()), 1, start, false, work);
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
  const double edgeInput = std::max(maxAbsOf(head), maxAbsOf(tail));
  const SosState zi = sosfiltZi(sections);
  SosState z(zi.size());
  for (std::size_t k = 0; k < zi.size(); ++k) z[k] = zi[k] * head.front();
  detail::sosRange(sections.data(), sections.size(), z.data(), head.data(), head.data(), 1, e);
  SosState end;
  WorkProgress work(progress, 2 * in.size());
  const double forward = scanPass(sections, gains, in.data(), out.data(), n, 1, z, true, work, edgeInput, &end);
  detail::sosRange(sections.data(), sections.size(), end.data(), tail.data(), tail.data(), 1, e);
  const double tailOutput = maxAbsOf(tail);
  for (std::size_t k = 0; k < zi.size(); ++k) z[k] = zi[k] * tail.back();
  detail::sosRange(sections.data(), sections.size(), z.data(), tail.data() + e - 1, tail.data() + e - 1, -1, e);
  const double backward = scanPass(sections, gains, out.data() + n - 1, out.data() + n - 1, n, -1, z, true, work, tailOutput);
  return forward * gains.inputToOutput + backward;
}

std::vector<std::size_t> sosScanCuts(const Sections& sections, std::size_t samples, bool zeroPhase) {
  const auto n = static_cast<std::int64_t>(samples);
  const std::int64_t blocks = blockCount(sosGains(sections), n);
  std::vector<std::size_t> cuts;
  for (std::int64_t b = 1; b < blocks; ++b) {
    const auto start = static_cast<std::size_t>(detail::chunkOf(n, blocks, b).begin);
    cuts.push_back(start);
    if (zeroPhase) cuts.push_back(samples - start);  // the backward pass's block, counted from the end
  }
  std::sort(cuts.begin(), cuts.end());
  return cuts;
}

}  // namespace siglab
