#include "siglab/minmax_pyramid.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cmath>
#include <stdexcept>

namespace siglab {
namespace {

MinMax minMaxOf(std::span<const double> values) {
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  return {*lo, *hi};
}

MinMax merge(MinMax a, MinMax b) { return {std::min(a.min, b.min), std::max(a.max, b.max)}; }

// minMaxOf in kLanes independent lanes the compiler turns into vector min/max (4x the speed of
// minmax_element on random data: the first level is the pyramid's one pass over the samples). The
// lanes skip a NaN, so a bucket whose sum is NaN (a NaN, or inf - inf) goes to minMaxOf instead and
// gives what it always gave.
MinMax bucketMinMax(std::span<const double> values) {
  constexpr std::size_t kLanes = 8;
  const std::size_t n = values.size();
  if (n < 2 * kLanes) return minMaxOf(values);
  double lo[kLanes], hi[kLanes], sum[kLanes];
  for (std::size_t k = 0; k < kLanes; ++k) lo[k] = hi[k] = sum[k] = values[k];
  std::size_t i = kLanes;
  for (; i + kLanes <= n; i += kLanes) {
    for (std::size_t k = 0; k < kLanes; ++k) {
      const double x = values[i + k];
      lo[k] = x < lo[k] ? x : lo[k];
      hi[k] = hi[k] < x ? x : hi[k];
      sum[k] += x;
    }
  }
  MinMax m{lo[0], hi[0]};
  double total = sum[0];
  for (std::size_t k = 1; k < kLanes; ++k) m = merge(m, {lo[k], hi[k]}), total += sum[k];
  for (; i < n; ++i) m = merge(m, {values[i], values[i]}), total += values[i];
  return std::isnan(total) ? minMaxOf(values) : m;
}

constexpr std::size_t kProgressStride = std::size_t{1} << 20;  // samples between progress reports
constexpr std::size_t kReadSamples = std::size_t{1} << 16;     // samples a reader gives at a time

}  // namespace

MinMaxPyramid::MinMaxPyramid(std::span<const double> samples, const Progress& progress, std::size_t maxFirstLevelBuckets,
                             const std::function<void(std::size_t, std::size_t)>& doneWith)
    : samples_(samples), size_(samples.size()) {
  build(progress, maxFirstLevelBuckets, doneWith);
}

MinMaxPyramid::MinMaxPyramid(std::size_t size, SampleReader read, const Progress& progress,
                             std::size_t maxFirstLevelBuckets, const std::function<void(std::size_t, std::size_t)>& doneWith)
    : read_(std::move(read)), size_(size) {
  build(progress, maxFirstLevelBuckets, doneWith);
}

void MinMaxPyramid::readThrough(SampleReader read) {
  read_ = std::move(read);
  samples_ = {};
}

void MinMaxPyramid::read(std::size_t first, std::span<double> out) const {
  if (first > size_ || out.size() > size_ - first) throw std::out_of_range("MinMaxPyramid::read: outside the signal");
  if (out.empty()) return;
  if (read_) return read_(first, out);
  std::copy_n(samples_.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
}

MinMax MinMaxPyramid::samplesMinMax(std::size_t first, std::size_t last) const {
  if (!read_) return minMaxOf(samples_.subspan(first, last - first));
  std::vector<double> values(last - first);
  read_(first, values);
  return minMaxOf(values);
}

void MinMaxPyramid::build(const Progress& progress, std::size_t maxFirstLevelBuckets,
                          const std::function<void(std::size_t, std::size_t)>& doneWith) {
  const std::size_t size = size_;
  if (size < kFirstBucket) return;
  while (size / firstBucket_ > std::max<std::size_t>(maxFirstLevelBuckets, 1)) firstBucket_ *= kFactor;
  // Level 0 from the samples, in stripes on every core; each later level from the one before.
  const std::size_t bucket = firstBucket_;
  std::vector<MinMax> level((size + bucket - 1) / bucket);
  const std::size_t bucketsPerStripe = std::max<std::size_t>(kProgressStride / bucket, 1);
  const auto stripes = static_cast<std::int64_t>((level.size() + bucketsPerStripe - 1) / bucketsPerStripe);
  std::atomic<std::int64_t> stripesDone{0};
  std::atomic<bool> cancelled{false};
#pragma omp parallel for schedule(dynamic, 1)
  for (std::int64_t stripe = 0; stripe < stripes; ++stripe) {
    if (cancelled.load(std::memory_order_relaxed) || progress.cancelled()) {
      cancelled = true;
      continue;
    }
    const std::size_t begin = static_cast<std::size_t>(stripe) * bucketsPerStripe;
    const std::size_t end = std::min(begin + bucketsPerStripe, level.size());
    const std::size_t first = begin * bucket, count = std::min(bucketsPerStripe * bucket, size - first);
    // A reader's samples come a few buckets at a time (about 512 KiB), so that converting them
    // costs each thread little memory next to the mapping's pages.
    const std::size_t bucketsPerRead = read_ ? std::max<std::size_t>(kReadSamples / bucket, 1) : end - begin;
    std::vector<double> converted;
    for (std::size_t group = begin; group < end; group += bucketsPerRead) {
      const std::size_t groupFirst = group * bucket;
      const std::size_t groupCount = std::min(bucketsPerRead * bucket, size - groupFirst);
      std::span<const double> samples;
      if (read_) {
        converted.resize(groupCount);
        read_(groupFirst, converted);
        samples = converted;
      } else {
        samples = samples_.subspan(groupFirst, groupCount);
      }
      for (std::size_t b = group; b < std::min(group + bucketsPerRead, end); ++b) {
        const std::size_t at = b * bucket - groupFirst;
        level[b] = bucketMinMax(samples.subspan(at, std::min(bucket, groupCount - at)));
      }
    }
    if (doneWith) doneWith(first, count);
    progress.report(static_cast<double>(++stripesDone) / static_cast<double>(stripes));
  }
  if (cancelled) throw Cancelled();
  levels_.push_back(std::move(level));
  while (levels_.back().size() >= kFactor) {
    const std::vector<MinMax>& below = levels_.back();
    std::vector<MinMax> above((below.size() + kFactor - 1) / kFactor);
    for (std::size_t b = 0; b < above.size(); ++b) {
      const std::size_t first = b * kFactor;
      MinMax m = below[first];
      for (std::size_t k = first + 1; k < std::min(first + kFactor, below.size()); ++k) m = merge(m, below[k]);
      above[b] = m;
    }
    levels_.push_back(std::move(above));
  }
  progress.report(1.0);
}

MinMax MinMaxPyramid::range(std::size_t first, std::size_t last) const {
  if (first >= last || last > size_) throw std::out_of_range("MinMaxPyramid::range: empty or outside the signal");
  if (levels_.empty()) return samplesMinMax(first, last);
  return rangeAtLevel(levels_.size() - 1, first, last);
}

// Whole buckets of `level` inside [first, last), plus the ragged ends from finer levels.
MinMax MinMaxPyramid::rangeAtLevel(std::size_t level, std::size_t first, std::size_t last) const {
  std::size_t bucket = firstBucket_;
  for (std::size_t k = 0; k < level; ++k) bucket *= kFactor;
  const std::size_t firstWhole = (first + bucket - 1) / bucket;
  const std::size_t lastWhole = last / bucket;  // one past
  if (firstWhole >= lastWhole) {
    if (level == 0) return samplesMinMax(first, last);
    return rangeAtLevel(level - 1, first, last);
  }
  const std::vector<MinMax>& buckets = levels_[level];
  MinMax m = buckets[firstWhole];
  for (std::size_t b = firstWhole + 1; b < lastWhole; ++b) m = merge(m, buckets[b]);
  const std::size_t wholeBegin = firstWhole * bucket;
  const std::size_t wholeEnd = lastWhole * bucket;
  if (first < wholeBegin) m = merge(m, level == 0 ? samplesMinMax(first, wholeBegin)
                                                  : rangeAtLevel(level - 1, first, wholeBegin));
  if (wholeEnd < last) m = merge(m, level == 0 ? samplesMinMax(wholeEnd, last)
                                               : rangeAtLevel(level - 1, wholeEnd, last));
  return m;
}

std::vector<MinMax> MinMaxPyramid::columns(std::size_t first, std::size_t last, std::size_t columns) const {
  if (columns == 0 || last > size_ || last - first < columns) {
    throw std::out_of_range("MinMaxPyramid::columns: fewer samples than columns, or outside the signal");
  }
  std::vector<MinMax> result(columns);
  const std::size_t length = last - first;
  for (std::size_t c = 0; c < columns; ++c) {
    result[c] = range(first + c * length / columns, first + (c + 1) * length / columns);
  }
  return result;
}

namespace {

// The points of a plot of samples [firstKey, lastKey] on `columns` columns: every sample where there
// are at most two a column, else each column's extent as `extentOf(first, last)` gives it.
template <class Read, class Extent>
PlotPoints pointsWith(std::size_t n, const Read& read, double firstKey, double lastKey, std::size_t columns,
                      const Extent& extentOf, const SamplesDone& doneWith) {
  PlotPoints points;
  if (n == 0 || columns == 0 || !(lastKey >= firstKey)) return points;
  const double maxIndex = static_cast<double>(n - 1);
  const auto first = static_cast<std::size_t>(std::clamp(std::floor(firstKey), 0.0, maxIndex));
  const std::size_t last = static_cast<std::size_t>(std::clamp(std::ceil(lastKey), 0.0, maxIndex)) + 1;
  const std::size_t length = last - first;
  if (length <= 2 * columns) {
    const std::size_t from = first > 0 ? first - 1 : 0;  // one neighbour each side: lines reach the edges
    const std::size_t to = std::min(last + 1, n);
    points.values.resize(to - from);
    read(from, std::span<double>(points.values));
    points.keys.reserve(to - from);
    for (std::size_t i = from; i < to; ++i) points.keys.push_back(static_cast<double>(i));
    return points;
  }
  points.exact = false;
  points.keys.reserve(2 * columns);
  points.values.reserve(2 * columns);
  for (std::size_t c = 0; c < columns; ++c) {
    const std::size_t start = first + c * length / columns, end = first + (c + 1) * length / columns;
    const MinMax m = extentOf(start, end);
    if (doneWith) doneWith(start, end - start);
    points.keys.insert(points.keys.end(), {static_cast<double>(start), static_cast<double>(start)});
    points.values.insert(points.values.end(), {m.min, m.max});
  }
  return points;
}

}  // namespace

PlotPoints pointsForPlot(const MinMaxPyramid& pyramid, double firstKey, double lastKey, std::size_t columns,
                         const SamplesDone& doneWith) {
  return pointsWith(
      pyramid.size(), [&](std::size_t first, std::span<double> out) { pyramid.read(first, out); }, firstKey, lastKey,
      columns, [&](std::size_t first, std::size_t last) { return pyramid.range(first, last); }, doneWith);
}

PlotPoints previewPointsForPlot(std::span<const double> samples, double firstKey, double lastKey, std::size_t columns,
                                const SamplesDone& doneWith) {
  return previewPointsForPlot(
      samples.size(),
      [samples](std::size_t first, std::span<double> out) {
        std::copy_n(samples.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
      },
      firstKey, lastKey, columns, doneWith);
}

PlotPoints previewPointsForPlot(std::size_t size, const SampleReader& read, double firstKey, double lastKey,
                                std::size_t columns, const SamplesDone& doneWith) {
  const auto at = [&](std::size_t i) {
    double v = 0.0;
    read(i, std::span(&v, 1));
    return v;
  };
  return pointsWith(size, read, firstKey, lastKey, columns, [&](std::size_t first, std::size_t last) {
    const std::size_t probes = std::min(kPreviewProbesPerColumn, last - first);
    const double v0 = at(first);
    MinMax m{v0, v0};
    for (std::size_t k = 1; k < probes; ++k) {
      const double v = at(first + k * (last - first) / probes);
      m = merge(m, {v, v});
    }
    return m;
  }, doneWith);
}

}  // namespace siglab
