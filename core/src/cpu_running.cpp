#include "siglab/cpu_running.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "cpu_backend_timing.hpp"
#include "parallel_range.hpp"
#include "siglab/neumaier_sum.hpp"

namespace siglab {
namespace {

// Higham's gamma_n = n u / (1 - n u): the relative bound on n roundings of unit u.
double gamma(double n, double unitRoundoff) {
  const double nu = n * unitRoundoff;
  return nu < 1.0 ? nu / (1.0 - nu) : std::numeric_limits<double>::infinity();
}

// Outputs [begin, end) as kLanes running windows over consecutive stretches, advanced in step so
// that the out-of-order core overlaps their dependency chains. Each window sum starts from
// scratch (O(W)), then takes one sample in and one out per output.
template <typename Sample>
void runningRange(std::span<const Sample> in, BoundaryMode mode, std::int64_t radius, double tap,
                  std::span<Sample> out, std::int64_t begin, std::int64_t end) {
  constexpr int kLanes = 4;
  const auto n = static_cast<std::int64_t>(in.size());
  const auto sample = [&](std::int64_t k) -> double {
    const std::int64_t index = boundaryIndex(k, n, mode);
    return index == kSkipSample ? 0.0 : static_cast<double>(in[static_cast<std::size_t>(index)]);
  };
  const auto step = [&](NeumaierSum& window, std::int64_t i) {
    out[static_cast<std::size_t>(i)] = static_cast<Sample>(tap * window.value());
    window.add(sample(i + radius + 1));
    window.add(-sample(i - radius));
  };
  const std::int64_t stretch = (end - begin) / kLanes;
  NeumaierSum windows[kLanes];
  for (int lane = 0; lane < kLanes; ++lane) {
    const std::int64_t first = begin + lane * stretch;
    for (std::int64_t k = first - radius; k <= first + radius; ++k) windows[lane].add(sample(k));
  }
  for (std::int64_t m = 0; m < stretch; ++m) {
    for (int lane = 0; lane < kLanes; ++lane) step(windows[lane], begin + lane * stretch + m);
  }
  for (std::int64_t i = begin + kLanes * stretch; i < end; ++i) step(windows[kLanes - 1], i);  // the last lane goes on
}

template <typename Sample>
void filterRunningAs(std::span<const Sample> in, const FilterSpec& spec, std::span<Sample> out) {
  validate(spec);
  if (!spec.isUniform()) throw std::invalid_argument("cpu-running needs uniform taps (a mean filter)");
  if (in.size() != out.size()) throw std::invalid_argument("filterRunning: input and output sizes differ");
  const auto n = static_cast<std::int64_t>(in.size());
  const auto radius = static_cast<std::int64_t>(spec.radius());
  const double tap = spec.taps[0];
  // Each piece pays O(W) per lane to start its windows: pieces of at least 16 W keep that small.
  const std::int64_t pieces = detail::piecesOf(n, std::max(detail::kPieceSize, 16 * (2 * radius + 1)));
#pragma omp parallel for schedule(dynamic, 1) if (pieces > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const detail::IndexRange piece = detail::chunkOf(n, pieces, p);
    runningRange(in, spec.mode, radius, tap, out, piece.begin, piece.end);
  }
}

template <typename Sample>
FilterRun runOrExplain(std::span<const Sample> in, const FilterSpec& spec, std::span<Sample> out,
                       const RunOptions& options) {
  if (!spec.isUniform()) {
    return FilterRun{RunStatus::Unavailable, "cpu-running needs uniform taps (a mean filter)", {}, {}, {}};
  }
  return detail::timeCpuRuns(options, [&] { filterRunning(in, spec, out); });
}

}  // namespace

void filterRunning(std::span<const double> in, const FilterSpec& spec, std::span<double> out) {
  filterRunningAs(in, spec, out);
}

void filterRunning(std::span<const float> in, const FilterSpec& spec, std::span<float> out) {
  filterRunningAs(in, spec, out);
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

FilterRun CpuRunningBackend::run(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                 const RunOptions& options) {
  return runOrExplain(in, spec, out, options);
}

FilterRun CpuRunningBackend::run(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                 const RunOptions& options) {
  return runOrExplain(in, spec, out, options);
}

}  // namespace siglab
