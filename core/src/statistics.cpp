#include "siglab/statistics.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <optional>
#include <string>
#include <stdexcept>
#include <vector>

#include "parallel_range.hpp"
#include "siglab/neumaier_sum.hpp"

// The vector helpers below are inlined, so no vector crosses a call: the ABI note is moot.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace siglab {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

Statistics emptyStatistics() {
  Statistics s;
  s.mean = s.rms = s.variance = s.stddev = s.min = s.max = kNaN;
  return s;
}

// Sums are scaled by 2^-exponent (squares by 2^-2 exponent) where the data's magnitude would make
// them overflow or their squares underflow: finite data then gives finite mean, rms and std (the
// sum, sum of squares and variance themselves may still exceed the float64 range: then infinite,
// as the exact value rounds). Inside [2^-450, 2^450] no scaling is needed: N M^2 < 2^964 for any N
// below 2^64, and squares stay normal. Scaling by a power of two is exact but for the parts of
// samples below 2^-1074 times the scale, far inside the stated bounds.
constexpr double kUnscaledLargest = 0x1p450;
constexpr double kUnscaledSmallest = 0x1p-450;

// The exponent to scale by for data of largest magnitude `m` (finite); 0 when none is needed.
int scaleExponent(double m) {
  if (m == 0.0 || (m >= kUnscaledSmallest && m <= kUnscaledLargest)) return 0;
  return std::ilogb(m);
}

double scaledBy(double value, int exponent) { return exponent == 0 ? value : std::ldexp(value, exponent); }

// Mean, rms, variance and std from the scaled sums (sum/2^e, sumsq/2^2e, m2/2^2e) of s.count
// samples; a variance that rounding pushed below zero is clamped, a NaN one stays NaN.
void finish(Statistics& s, double sum, double sumsq, double m2, int exponent) {
  const auto n = static_cast<double>(s.count);
  double variance = m2 / n;
  if (variance < 0.0) variance = 0.0;  // not std::max: a NaN variance must stay NaN
  s.sum = scaledBy(sum, exponent);
  s.sumsq = scaledBy(sumsq, 2 * exponent);
  s.mean = scaledBy(sum / n, exponent);
  s.rms = scaledBy(std::sqrt(sumsq / n), exponent);
  s.variance = scaledBy(variance, 2 * exponent);
  s.stddev = scaledBy(std::sqrt(variance), exponent);
}

// ---- parallel: per block, 8 lanes (two vectors of four) ----

using Vec4 [[gnu::vector_size(32)]] = double;

[[gnu::always_inline]] inline Vec4 load(const double* p) {
  Vec4 v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
[[gnu::always_inline]] inline double lanesSum(Vec4 a, Vec4 b) {
  const Vec4 s = a + b;
  return (s[0] + s[1]) + (s[2] + s[3]);
}

// One block in one pass: extremes, and the sums of deviations e = x - c about the block's first
// sample c. They give the block's mean (c + sum e / n), its sum of squared deviations
// (sum e^2 - (sum e)^2 / n) without cancellation ((mean - c)^2 <= the block's own m2, since c is
// one of its samples), and its sums (n c + sum e, n c^2 + 2 c sum e + sum e^2). Summing only
// deviations costs 12 vector operations per 8 samples instead of 18, which is what lets the pass
// keep up with memory; the price is the n |c| term in the stated bounds.
struct BlockMoments {
  double min = 0.0;
  double max = 0.0;
  double deviations = 0.0;  // sum of x - c
  double squares = 0.0;     // sum of (x - c)^2
};

[[gnu::target_clones("avx2", "default")]] BlockMoments blockMoments(const double* x, std::size_t len) {
  const double c = x[0];
  const Vec4 centre = {c, c, c, c};
  // Separate accumulators per vector, so that no add or compare waits on the one before.
  Vec4 d0 = {}, d1 = {}, e0 = {}, e1 = {};
  Vec4 lo0 = centre, lo1 = centre, hi0 = centre, hi1 = centre;
  std::size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    const Vec4 a = load(x + i), b = load(x + i + 4);
    lo0 = a < lo0 ? a : lo0;
    lo1 = b < lo1 ? b : lo1;
    hi0 = a > hi0 ? a : hi0;
    hi1 = b > hi1 ? b : hi1;
    const Vec4 da = a - centre, db = b - centre;
    d0 += da;
    d1 += db;
    e0 += da * da;
    e1 += db * db;
  }
  BlockMoments m{c, c, lanesSum(d0, d1), lanesSum(e0, e1)};
  for (int k = 0; k < 4; ++k) {
    m.min = std::min({m.min, lo0[k], lo1[k]});
    m.max = std::max({m.max, hi0[k], hi1[k]});
  }
  for (; i < len; ++i) {
    m.min = std::min(m.min, x[i]);
    m.max = std::max(m.max, x[i]);
    const double d = x[i] - c;
    m.deviations += d;
    m.squares += d * d;
  }
  return m;
}

// What one piece has seen. mean is kept relative to a shift near the data (the range's first
// sample), so that a large offset costs no precision in the variance.
struct Partial {
  int exponent = 0;  // sum, mean are in units of 2^exponent; sumsq, m2 of 2^(2 exponent)
  std::uint64_t count = 0;
  NeumaierSum sum;
  NeumaierSum sumsq;
  double mean = 0.0;  // shifted
  double m2 = 0.0;    // sum of squared deviations from the mean
  double min = 0.0;
  std::uint64_t minIndex = 0;
  double max = 0.0;
  std::uint64_t maxIndex = 0;

  // Chan, Golub and LeVeque's pairwise update of mean and m2; extremes keep the earliest index.
  void merge(std::uint64_t n, double blockMean, double blockM2, double lo, std::uint64_t loIndex, double hi,
             std::uint64_t hiIndex) {
    if (count == 0 || lo < min) min = lo, minIndex = loIndex;
    if (count == 0 || hi > max) max = hi, maxIndex = hiIndex;
    const double total = static_cast<double>(count + n);
    const double delta = blockMean - mean;
    mean += delta * (static_cast<double>(n) / total);
    m2 += blockM2 + delta * delta * (static_cast<double>(count) * static_cast<double>(n) / total);
    count += n;
  }
  void merge(const Partial& other) {
    if (other.count == 0) return;
    if (count == 0) exponent = other.exponent;
    if (other.exponent > exponent) rescale(other.exponent);
    const int down = exponent - other.exponent;  // other's units to ours
    sum.add(std::ldexp(other.sum.sum, -down));
    sum.add(std::ldexp(other.sum.compensation, -down));
    sumsq.add(std::ldexp(other.sumsq.sum, -2 * down));
    sumsq.add(std::ldexp(other.sumsq.compensation, -2 * down));
    merge(other.count, std::ldexp(other.mean, -down), std::ldexp(other.m2, -2 * down), other.min, other.minIndex,
          other.max, other.maxIndex);
  }
  // To units of 2^to (to > exponent): exact but for what falls below the smallest subnormal.
  void rescale(int to) {
    const int down = to - exponent;
    sum.sum = std::ldexp(sum.sum, -down);
    sum.compensation = std::ldexp(sum.compensation, -down);
    sumsq.sum = std::ldexp(sumsq.sum, -2 * down);
    sumsq.compensation = std::ldexp(sumsq.compensation, -2 * down);
    mean = std::ldexp(mean, -down);
    m2 = std::ldexp(m2, -2 * down);
    exponent = to;
  }
};

std::uint64_t firstIndexOf(const double* x, std::size_t len, double value) {
  std::size_t i = 0;
  while (i + 1 < len && x[i] != value) ++i;
  return i;
}

// A piece's statistics in units of 2^exponent (0: the samples as they are, the fast path).
Partial statisticsOfPiece(const double* x, std::size_t len, std::uint64_t firstIndex, double shift, int exponent = 0) {
  Partial p;
  p.exponent = exponent;
  shift = scaledBy(shift, -exponent);
  std::vector<double> scaled(exponent == 0 ? 0 : std::min(kStatisticsBlock, len));
  for (std::size_t b = 0; b < len; b += kStatisticsBlock) {
    const std::size_t n = std::min(kStatisticsBlock, len - b);
    const double* block = x + b;
    if (exponent != 0) {
      for (std::size_t i = 0; i < n; ++i) scaled[i] = std::ldexp(block[i], -exponent);
    }
    const double* moments = exponent == 0 ? block : scaled.data();
    BlockMoments m = blockMoments(moments, n);
    if (exponent != 0) {  // the extremes exactly, from the samples themselves
      m.min = m.max = block[0];
      for (std::size_t i = 1; i < n; ++i) m.min = std::min(m.min, block[i]), m.max = std::max(m.max, block[i]);
    }
    const auto count = static_cast<double>(n);
    const double c = moments[0];
    const double shiftedMean = (c - shift) + m.deviations / count;
    const double m2 = m.squares - m.deviations * m.deviations / count;
    const double blockSum = count * c + m.deviations;
    p.sum.add(blockSum);
    p.sumsq.add(c * (blockSum + m.deviations) + m.squares);
    const bool newMin = p.count == 0 || m.min < p.min, newMax = p.count == 0 || m.max > p.max;
    p.merge(n, shiftedMean, m2, m.min, newMin ? firstIndex + b + firstIndexOf(block, n, m.min) : 0,
            m.max, newMax ? firstIndex + b + firstIndexOf(block, n, m.max) : 0);
  }
  return p;
}

// A piece's statistics, scaled where its magnitude (or the shift's) needs it; a piece holding a
// NaN or an infinity comes back with non-finite sums, for the callers' IEEE path.
Partial statisticsOfPieceScaled(const double* x, std::size_t len, std::uint64_t firstIndex, double shift) {
  Partial p = statisticsOfPiece(x, len, firstIndex, shift);
  const bool finiteSums = std::isfinite(p.sum.value()) && std::isfinite(p.sumsq.value());
  if (!finiteSums && !std::all_of(x, x + len, [](double v) { return std::isfinite(v); })) return p;
  const double shiftSize = std::isfinite(shift) ? std::fabs(shift) : 0.0;
  const int exponent = scaleExponent(std::max({std::fabs(p.min), std::fabs(p.max), shiftSize}));
  return exponent == 0 && finiteSums ? p : statisticsOfPiece(x, len, firstIndex, shift, exponent);
}

// The statistics of finite samples that `all` has seen (count > 0).
Statistics statisticsOf(const Partial& all) {
  Statistics s;
  s.count = all.count;
  s.min = all.min;
  s.minIndex = all.minIndex;
  s.max = all.max;
  s.maxIndex = all.maxIndex;
  finish(s, all.sum.value(), all.sumsq.value(), all.m2, all.exponent);
  return s;
}

}  // namespace

std::span<const double> selectRange(std::span<const double> signal, SampleRange range) {
  const SampleRange checked = checkedRange(signal.size(), range);
  return signal.subspan(checked.begin, checked.end - checked.begin);
}

SampleRange checkedRange(std::size_t size, SampleRange range) {
  const std::size_t end = std::min(range.end, size);
  if (range.end != SampleRange{}.end && range.end > size) {
    throw std::out_of_range("range end " + std::to_string(range.end) + " is past the signal's " +
                            std::to_string(size) + " samples");
  }
  if (range.begin > end) {
    throw std::out_of_range("range start " + std::to_string(range.begin) + " is after its end " +
                            std::to_string(end));
  }
  return {range.begin, end};
}

Statistics statisticsSerial(std::span<const double> signal, SampleRange range) {
  const std::span<const double> x = selectRange(signal, range);
  if (x.empty()) return emptyStatistics();
  Statistics s;
  s.count = x.size();
  s.min = s.max = x[0];
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] < s.min) s.min = x[i], s.minIndex = i;
    if (x[i] > s.max) s.max = x[i], s.maxIndex = i;
  }
  // numpy's min and max (and argmin, argmax): a NaN anywhere wins, at its first index.
  const auto nan = std::find_if(x.begin(), x.end(), [](double v) { return std::isnan(v); });
  // Finite samples are summed scaled where their magnitude needs it; NaN and infinities as IEEE sums them.
  const bool finite = nan == x.end() && std::isfinite(s.min) && std::isfinite(s.max);
  const int exponent = finite ? scaleExponent(std::max(std::fabs(s.min), std::fabs(s.max))) : 0;
  NeumaierSum sum, sumsq;
  for (double v : x) {
    const double y = scaledBy(v, -exponent);
    sum.add(y);
    sumsq.add(y * y);
  }
  if (nan != x.end()) {
    s.min = s.max = *nan;
    s.minIndex = s.maxIndex = static_cast<std::uint64_t>(nan - x.begin());
  }
  s.minIndex += range.begin;
  s.maxIndex += range.begin;
  const auto n = static_cast<double>(x.size());
  const double mean = sum.value() / n;
  NeumaierSum deviations, squares;
  for (double v : x) {
    const double d = scaledBy(v, -exponent) - mean;
    deviations.add(d);
    squares.add(d * d);
  }
  finish(s, sum.value(), sumsq.value(), squares.value() - deviations.value() * deviations.value() / n, exponent);
  return s;
}

Statistics statisticsParallel(std::span<const double> signal, SampleRange range) {
  return statisticsParallel(signal, range, Progress{});
}

Statistics statisticsParallel(std::span<const double> signal, SampleRange range, const Progress& progress) {
  const std::span<const double> x = selectRange(signal, range);
  if (x.empty()) return emptyStatistics();
  const auto n = static_cast<std::int64_t>(x.size());
  // One partial per piece, merged in order: the result does not depend on which thread took what.
  const std::int64_t pieces = detail::piecesOf(n, 4 * detail::kPieceSize);
  std::vector<Partial> partials(static_cast<std::size_t>(pieces));
  std::atomic<std::int64_t> done{0};
#pragma omp parallel for schedule(dynamic, 1) if (pieces > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    if (progress.cancelled()) continue;  // no exception may leave an OpenMP loop: thrown after it
    const detail::IndexRange piece = detail::chunkOf(n, pieces, p, kStatisticsBlock);
    partials[static_cast<std::size_t>(p)] =
        statisticsOfPieceScaled(x.data() + piece.begin, static_cast<std::size_t>(piece.end - piece.begin),
                                range.begin + static_cast<std::uint64_t>(piece.begin), x[0]);
    progress.report(static_cast<double>(++done) / static_cast<double>(pieces));
  }
  progress.throwIfCancelled();
  Partial all;
  for (const Partial& p : partials) all.merge(p);
  // Any NaN or infinity makes a piece's sums non-finite (overflow is scaled away): the serial pass
  // then gives IEEE's and numpy's answers, which the shifted block sums cannot.
  if (!std::isfinite(all.sumsq.value()) || !std::isfinite(all.sum.value())) return statisticsSerial(signal, range);
  return statisticsOf(all);
}

struct StatisticsAccumulator::State {
  Partial all;  // the finite pieces
  double shift = 0.0;  // the signal's first sample
  std::uint64_t firstIndex = 0;
  // Pieces with a NaN or an infinity, summed as IEEE does (the shifted block sums cannot):
  // statisticsParallel's fallback to the serial pass, in one pass.
  std::uint64_t nonFiniteCount = 0;
  double nonFiniteSum = 0.0, nonFiniteSumsq = 0.0;
  double nonFiniteMin = 0.0, nonFiniteMax = 0.0;
  std::uint64_t nonFiniteMinIndex = 0, nonFiniteMaxIndex = 0;
  std::optional<std::uint64_t> firstNaN;
  std::uint64_t seen = 0;  // every sample added

  void addNonFinite(const double* x, std::size_t n, std::uint64_t indexOfX0) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t index = indexOfX0 + i;
      nonFiniteSum += x[i];
      nonFiniteSumsq += x[i] * x[i];
      if (std::isnan(x[i])) {
        if (!firstNaN) firstNaN = index;
        continue;
      }
      if (nonFiniteCount == 0 || x[i] < nonFiniteMin) nonFiniteMin = x[i], nonFiniteMinIndex = index;
      if (nonFiniteCount == 0 || x[i] > nonFiniteMax) nonFiniteMax = x[i], nonFiniteMaxIndex = index;
      ++nonFiniteCount;
    }
  }
};

StatisticsAccumulator::StatisticsAccumulator(std::uint64_t firstIndex) : state_(std::make_unique<State>()) {
  state_->firstIndex = firstIndex;
}
StatisticsAccumulator::~StatisticsAccumulator() = default;

void StatisticsAccumulator::add(std::span<const double> x) {
  if (x.empty()) return;
  if (state_->seen == 0) state_->shift = x[0];
  const auto n = static_cast<std::int64_t>(x.size());
  const std::int64_t pieces = detail::piecesOf(n, 4 * detail::kPieceSize);
  std::vector<Partial> partials(static_cast<std::size_t>(pieces));
  const std::uint64_t firstIndex = state_->firstIndex + state_->seen;
#pragma omp parallel for schedule(dynamic, 1) if (pieces > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const detail::IndexRange piece = detail::chunkOf(n, pieces, p, kStatisticsBlock);
    partials[static_cast<std::size_t>(p)] =
        statisticsOfPieceScaled(x.data() + piece.begin, static_cast<std::size_t>(piece.end - piece.begin),
                                firstIndex + static_cast<std::uint64_t>(piece.begin), state_->shift);
  }
  for (std::int64_t p = 0; p < pieces; ++p) {
    const Partial& partial = partials[static_cast<std::size_t>(p)];
    if (std::isfinite(partial.sum.value()) && std::isfinite(partial.sumsq.value())) {
      state_->all.merge(partial);
    } else {
      const detail::IndexRange piece = detail::chunkOf(n, pieces, p, kStatisticsBlock);
      state_->addNonFinite(x.data() + piece.begin, static_cast<std::size_t>(piece.end - piece.begin),
                           firstIndex + static_cast<std::uint64_t>(piece.begin));
    }
  }
  state_->seen += x.size();
}

Statistics StatisticsAccumulator::result() const {
  const Partial& all = state_->all;
  if (state_->seen == 0) return emptyStatistics();
  if (state_->seen != all.count) return nonFiniteResult();
  return statisticsOf(all);
}

// IEEE's and numpy's answers where a NaN or an infinity was seen: the sums as plain IEEE sums
// (non-finite, whatever the finite pieces' rounding), variance NaN (inf - inf), and a NaN anywhere
// makes min and max NaN at its first index.
Statistics StatisticsAccumulator::nonFiniteResult() const {
  const State& st = *state_;
  const Partial& all = st.all;
  Statistics s;
  s.count = st.seen;
  const double sum = (all.count ? scaledBy(all.sum.value(), all.exponent) : 0.0) + st.nonFiniteSum;
  const double sumsq = (all.count ? scaledBy(all.sumsq.value(), 2 * all.exponent) : 0.0) + st.nonFiniteSumsq;
  const bool finiteFirst = all.count > 0;
  s.min = finiteFirst ? all.min : st.nonFiniteMin;
  s.minIndex = finiteFirst ? all.minIndex : st.nonFiniteMinIndex;
  s.max = finiteFirst ? all.max : st.nonFiniteMax;
  s.maxIndex = finiteFirst ? all.maxIndex : st.nonFiniteMaxIndex;
  if (finiteFirst && st.nonFiniteCount > 0) {  // the smaller index wins a tie: the first occurrence
    if (st.nonFiniteMin < s.min || (st.nonFiniteMin == s.min && st.nonFiniteMinIndex < s.minIndex)) {
      s.min = st.nonFiniteMin, s.minIndex = st.nonFiniteMinIndex;
    }
    if (st.nonFiniteMax > s.max || (st.nonFiniteMax == s.max && st.nonFiniteMaxIndex < s.maxIndex)) {
      s.max = st.nonFiniteMax, s.maxIndex = st.nonFiniteMaxIndex;
    }
  }
  if (st.firstNaN) {
    s.min = s.max = std::numeric_limits<double>::quiet_NaN();
    s.minIndex = s.maxIndex = *st.firstNaN;
  }
  finish(s, sum, sumsq, std::numeric_limits<double>::quiet_NaN(), 0);
  return s;
}

}  // namespace siglab
