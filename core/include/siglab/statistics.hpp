#pragma once
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>

#include "siglab/progress.hpp"

namespace siglab {

// Samples [begin, end) of a signal; the default is all of it.
struct SampleRange {
  std::size_t begin = 0;
  std::size_t end = std::numeric_limits<std::size_t>::max();  // max: to the end of the signal
};

// Summary of a range of samples. With NaN or infinities among them, the values follow IEEE and
// numpy: a NaN makes sum, mean, sumsq, rms, variance, std, min and max NaN (min and max indices:
// the first NaN's); +inf and -inf give numpy's sums and extremes (inf - inf: NaN). Finite samples
// give finite mean, rms and std whatever their magnitude (the sums are scaled by a power of two
// where they would overflow or their squares underflow); sum, sumsq and variance are infinite only
// where their exact value is beyond float64 (1e308, 1e308: sum inf, mean 1e308, std 0). variance
// is the population variance (divided by count); min and max indices count from the start of the
// whole signal, first occurrence. An empty range has count 0, sum and sumsq 0, NaN for the rest.
struct Statistics {
  std::uint64_t count = 0;
  double sum = 0.0;
  double mean = 0.0;
  double sumsq = 0.0;  // sum of squares
  double rms = 0.0;
  double variance = 0.0;
  double stddev = 0.0;
  double min = 0.0;
  std::uint64_t minIndex = 0;
  double max = 0.0;
  std::uint64_t maxIndex = 0;
};

// The samples `range` selects; throws std::out_of_range saying why when it does not fit the signal.
std::span<const double> selectRange(std::span<const double> signal, SampleRange range);
// The same for a signal of `size` samples read in pieces: the range with its end made explicit.
SampleRange checkedRange(std::size_t size, SampleRange range);

// The reference: Neumaier-compensated sums in one pass, then the variance by the corrected
// two-pass formula (sum (x - mean)^2 - (sum (x - mean))^2 / n) / n, also compensated.
Statistics statisticsSerial(std::span<const double> signal, SampleRange range = {});

// The same on every core with SIMD, in one read of memory: each block of kStatisticsBlock
// samples sums its deviations x - c about its first sample c in 8 lanes (and its extremes); the
// blocks' sums (n c + sum of deviations, n c^2 + 2 c sum + sum of squared deviations) are added
// with compensation, their variances merged by Chan's formula. Bounds against the exact values
// (u = 2^-53, N = count, M = max|x|): |sum error| <= kStatisticsSumBound * u * (sum|x| + N M),
// |sumsq error| <= 8 * kStatisticsSumBound * u * (sum x^2 + N M^2); mean and rms follow. The N M
// terms come from the shift and only matter where a block starts on an outlier. The variance's
// relative error is kept under kStatisticsVarianceRelativeBound in the tests (adversarial data
// included), not proven.
Statistics statisticsParallel(std::span<const double> signal, SampleRange range = {});
// The same pass (the same result, bit for bit) reporting its pieces done through `progress` and
// throwing Cancelled once asked to stop: the desktop's region statistics, off its GUI thread.
Statistics statisticsParallel(std::span<const double> signal, SampleRange range, const Progress& progress);

// statisticsParallel's pass over a signal given in order, block by block (streamed from a file),
// with the same bounds: add() each block as it comes, result() at any point.
class StatisticsAccumulator {
 public:
  // firstIndex: the index of the first sample added (min and max indices count from it).
  explicit StatisticsAccumulator(std::uint64_t firstIndex = 0);
  ~StatisticsAccumulator();
  StatisticsAccumulator(const StatisticsAccumulator&) = delete;
  StatisticsAccumulator& operator=(const StatisticsAccumulator&) = delete;

  void add(std::span<const double> block);
  Statistics result() const;

 private:
  Statistics nonFiniteResult() const;
  struct State;
  std::unique_ptr<State> state_;
};

inline constexpr std::size_t kStatisticsBlock = 2048;
inline constexpr double kStatisticsSumBound = kStatisticsBlock / 8 + 8;
inline constexpr double kStatisticsVarianceRelativeBound = 1e-10;

}  // namespace siglab
