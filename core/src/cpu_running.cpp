#include "siglab/cpu_running.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "cpu_engine.hpp"
#include "siglab/work_progress.hpp"

// The vector helpers below are inlined, so no vector crosses a call: the ABI note is moot.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace siglab {
namespace {

// Higham's gamma_n = n u / (1 - n u): the relative bound on n roundings of unit u.
double gamma(double n, double unitRoundoff) {
  const double nu = n * unitRoundoff;
  return nu < 1.0 ? nu / (1.0 - nu) : std::numeric_limits<double>::infinity();
}

// Knuth's TwoSum: `sum + x` split exactly into the rounded sum and its rounding error, which goes
// into `compensation`. Branch-free, so one vector can carry several independent windows.
template <typename T>
[[gnu::always_inline]] inline void addCompensated(T& sum, T& compensation, T x) {
  const T t = sum + x;
  const T z = t - sum;
  compensation += (sum - (t - z)) + (x - z);
  sum = t;
}

// Outputs [begin, end) through the boundary rule: one window, started from scratch (O(W)), then
// one sample in and one out per output.
template <typename Sample>
void runningThroughBoundary(std::span<const Sample> in, BoundaryMode mode, std::int64_t radius, double tap,
                            std::span<Sample> out, std::int64_t begin, std::int64_t end) {
  const auto n = static_cast<std::int64_t>(in.size());
  const auto sample = [&](std::int64_t k) -> double {
    const std::int64_t index = boundaryIndex(k, n, mode);
    return index == kSkipSample ? 0.0 : static_cast<double>(in[static_cast<std::size_t>(index)]);
  };
  if (begin >= end) return;
  double sum = 0.0, compensation = 0.0;
  for (std::int64_t k = begin - radius; k <= begin + radius; ++k) addCompensated(sum, compensation, sample(k));
  for (std::int64_t i = begin; i < end; ++i) {
    out[static_cast<std::size_t>(i)] = static_cast<Sample>(tap * (sum + compensation));
    addCompensated(sum, compensation, sample(i + radius + 1));
    addCompensated(sum, compensation, -sample(i - radius));
  }
}

using Vec4 [[gnu::vector_size(32)]] = double;

// Sample `offset` of each of four streams, in one vector.
template <typename Sample>
[[gnu::always_inline]] inline Vec4 gather(const Sample* const* streams, std::int64_t offset) {
  return Vec4{static_cast<double>(streams[0][offset]), static_cast<double>(streams[1][offset]),
              static_cast<double>(streams[2][offset]), static_cast<double>(streams[3][offset])};
}

// Outputs [begin, end) whose windows, and the samples entering and leaving them, lie inside the
// signal (radius <= begin, end + radius < n). Four windows over consecutive stretches advance
// together in one vector, so their dependency chains overlap; the last one finishes the rest.
// Where runningInside's lanes begin, for outputs [begin, end).
std::int64_t laneStretch(std::int64_t begin, std::int64_t end) { return (end - begin) / 4; }

template <typename Sample>
[[gnu::always_inline]] inline void runningInside(const Sample* x, std::int64_t radius, double tap, Sample* out,
                                                 std::int64_t begin, std::int64_t end) {
  constexpr int kLanes = 4;
  const std::int64_t stretch = laneStretch(begin, end);
  Vec4 sum = {}, compensation = {};
  const Sample *entering[kLanes], *leaving[kLanes];
  Sample* written[kLanes];
  for (int lane = 0; lane < kLanes; ++lane) {
    const std::int64_t first = begin + lane * stretch;
    entering[lane] = x + first + radius + 1;
    leaving[lane] = x + first - radius;
    written[lane] = out + first;
  }
  // The first windows, all four at once: samples leaving[lane][0 .. W-1].
  for (std::int64_t k = 0; k <= 2 * radius; ++k) addCompensated(sum, compensation, gather(leaving, k));
  const Vec4 taps = {tap, tap, tap, tap};
  for (std::int64_t m = 0; m < stretch; ++m) {
    const Vec4 y = taps * (sum + compensation);
    for (int lane = 0; lane < kLanes; ++lane) written[lane][m] = static_cast<Sample>(y[lane]);
    addCompensated(sum, compensation, gather(entering, m));
    addCompensated(sum, compensation, -gather(leaving, m));
  }
  double s = sum[kLanes - 1], c = compensation[kLanes - 1];
  for (std::int64_t i = begin + kLanes * stretch; i < end; ++i) {
    out[i] = static_cast<Sample>(tap * (s + c));
    addCompensated(s, c, static_cast<double>(x[i + radius + 1]));
    addCompensated(s, c, -static_cast<double>(x[i - radius]));
  }
}

[[gnu::target_clones("avx2", "default")]] void runningInsideF64(const double* x, std::int64_t radius, double tap,
                                                                double* out, std::int64_t begin, std::int64_t end) {
  runningInside(x, radius, tap, out, begin, end);
}
[[gnu::target_clones("avx2", "default")]] void runningInsideF32(const float* x, std::int64_t radius, double tap,
                                                                float* out, std::int64_t begin, std::int64_t end) {
  runningInside(x, radius, tap, out, begin, end);
}

// Outputs [begin, end): the part near the edges through the boundary rule, the rest inside.
// Appends to `restarts` where a sum starts afresh inside the range.
template <typename Sample>
void runningRange(std::span<const Sample> in, BoundaryMode mode, std::int64_t radius, double tap,
                  std::span<Sample> out, std::int64_t begin, std::int64_t end, std::vector<std::size_t>& restarts) {
  const auto n = static_cast<std::int64_t>(in.size());
  const std::int64_t insideBegin = std::max(begin, radius), insideEnd = std::min(end, n - radius - 1);
  if (insideBegin >= insideEnd) {
    runningThroughBoundary(in, mode, radius, tap, out, begin, end);
    return;
  }
  const std::int64_t stretch = laneStretch(insideBegin, insideEnd);
  for (int lane = 0; lane < 4; ++lane) restarts.push_back(static_cast<std::size_t>(insideBegin + lane * stretch));
  restarts.push_back(static_cast<std::size_t>(insideBegin + 4 * stretch));  // the last lane carries on
  restarts.push_back(static_cast<std::size_t>(insideEnd));
  runningThroughBoundary(in, mode, radius, tap, out, begin, insideBegin);
  if constexpr (std::is_same_v<Sample, double>) {
    runningInsideF64(in.data(), radius, tap, out.data(), insideBegin, insideEnd);
  } else {
    runningInsideF32(in.data(), radius, tap, out.data(), insideBegin, insideEnd);
  }
  runningThroughBoundary(in, mode, radius, tap, out, insideEnd, end);
}

template <typename Sample>
std::vector<std::size_t> filterRunningAs(std::span<const Sample> in, const FilterSpec& spec, std::span<Sample> out,
                                         const Progress& progress) {
  validate(spec);
  if (!spec.isUniform()) throw std::invalid_argument("cpu-running needs uniform taps (a mean filter)");
  if (in.size() != out.size()) throw std::invalid_argument("filterRunning: input and output sizes differ");
  const auto n = static_cast<std::int64_t>(in.size());
  const auto radius = static_cast<std::int64_t>(spec.radius());
  const double tap = spec.taps[0];
  // Each piece pays O(W) per lane (4) to start its windows: pieces of at least 16 W keep that small.
  const std::int64_t pieces = detail::piecesOf(n, std::max(detail::kPieceSize, 16 * (2 * radius + 1)));
  std::vector<std::vector<std::size_t>> restarts(static_cast<std::size_t>(pieces));
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
#pragma omp parallel for schedule(dynamic, 1) if (pieces > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    if (work.cancelled()) continue;  // no break out of an OpenMP loop: the rest are skipped
    const detail::IndexRange piece = detail::chunkOf(n, pieces, p);
    runningRange(in, spec.mode, radius, tap, out, piece.begin, piece.end, restarts[static_cast<std::size_t>(p)]);
    work.add(static_cast<std::uint64_t>(piece.end - piece.begin));
  }
  progress.throwIfCancelled();
  std::vector<std::size_t> cuts = detail::pieceStarts(n, pieces);
  for (const auto& piece : restarts) cuts.insert(cuts.end(), piece.begin(), piece.end());
  return cuts;
}

// In stretches of a millisecond or so, looking at Cancel between them.
template <typename Sample>
bool allFinite(std::span<const Sample> in, const Progress& progress) {
  constexpr std::size_t kStretch = std::size_t{1} << 20;
  for (std::size_t begin = 0; begin < in.size(); begin += kStretch) {
    progress.throwIfCancelled();
    const auto stretch = in.subspan(begin, std::min(kStretch, in.size() - begin));
    if (!std::all_of(stretch.begin(), stretch.end(), [](Sample v) { return std::isfinite(v); })) return false;
  }
  return true;
}

template <typename Sample>
FilterPass runOrExplain(std::span<const Sample> in, const FilterSpec& spec, std::span<Sample> out,
                        const Progress& progress) {
  if (!allFinite(in, progress)) {
    throw EngineUnavailable("cpu-running needs finite samples (a NaN or infinity would stay in the running sum)");
  }
  std::vector<std::size_t> cuts;
  FilterPass pass = detail::timedCpuPass({}, [&] { cuts = filterRunning(in, spec, out, progress); });
  pass.splits.at = std::move(cuts);
  return pass;
}

}  // namespace

std::vector<std::size_t> filterRunning(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                       const Progress& progress) {
  return filterRunningAs(in, spec, out, progress);
}

std::vector<std::size_t> filterRunning(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                       const Progress& progress) {
  return filterRunningAs(in, spec, out, progress);
}

std::string CpuRunningBackend::whyNot(const FilterSpec& spec, SampleType type) const {
  if (std::string why = whyNotSampleType(type); !why.empty()) return why;
  if (std::string why = whyNotCorrelation(spec, name()); !why.empty()) return why;
  if (!spec.isUniform()) return "cpu-running needs uniform taps (a mean filter)";
  return {};
}

double CpuRunningBackend::tolerance(const FilterSpec& spec, double maxAbsInput) const {
  const double tapMass = std::fabs(spec.taps.empty() ? 0.0 : spec.taps[0]) * static_cast<double>(spec.window());
  const double serialError = gamma(static_cast<double>(spec.window()), 0x1p-53);
  return (kRunningSumRelativeError + serialError) * tapMass * maxAbsInput;
}

double CpuRunningBackend::toleranceFloat32(const FilterSpec& spec, double maxAbsInput) const {
  const double tapMass = std::fabs(spec.taps.empty() ? 0.0 : spec.taps[0]) * static_cast<double>(spec.window());
  const double unit = spec.accumulator == Accumulator::Float64 ? 0x1p-53 : 0x1p-24;
  // Both results are rounded to float once (2 x 2^-24); the reference may also accumulate in float.
  const double serialError = 2 * 0x1p-24 + gamma(static_cast<double>(spec.window()) + 1.0, unit);
  return (kRunningSumRelativeError + serialError) * tapMass * maxAbsInput;
}

FilterPass CpuRunningBackend::filter(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                     const RunOptions& /*options*/, const Progress& progress) {
  return runOrExplain(in, spec, out, progress);
}

FilterPass CpuRunningBackend::filter(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                     const RunOptions& /*options*/, const Progress& progress) {
  return runOrExplain(in, spec, out, progress);
}

}  // namespace siglab
