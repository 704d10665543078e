#pragma once
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "siglab/progress.hpp"

namespace siglab {

struct MinMax {
  double min = 0.0;
  double max = 0.0;
};

// Min and max of every bucket of a signal at a ladder of bucket sizes (16, 64, 256, ...), so the
// exact min and max of any sample range cost a few dozen lookups instead of a scan. Built once per
// signal; a plot asks it for one min/max per pixel column. It reads the samples it was built on,
// which must outlive it unchanged.
class MinMaxPyramid {
 public:
  static constexpr std::size_t kFirstBucket = 16;
  static constexpr std::size_t kFactor = 4;
  // The first level's bucket grows (by kFactor) until the level has at most this many buckets,
  // so a signal of 2^31 samples costs 32 MiB of pyramid, not 2 GiB.
  static constexpr std::size_t kMaxFirstLevelBuckets = std::size_t{1} << 21;

  MinMaxPyramid() = default;
  // Throws Cancelled when `progress` asks for it. The first level is built on every core.
  // `doneWith(first, count)`, when given, is told of each stretch of samples the build no longer
  // needs (a mapped signal lets its pages go: MappedSignal::release).
  explicit MinMaxPyramid(std::span<const double> samples, const Progress& progress = {},
                         std::size_t maxFirstLevelBuckets = kMaxFirstLevelBuckets,
                         const std::function<void(std::size_t first, std::size_t count)>& doneWith = {});

  std::size_t size() const { return samples_.size(); }
  std::size_t firstBucket() const { return firstBucket_; }  // samples a first-level bucket spans
  std::span<const double> samples() const { return samples_; }

  // The exact min and max of samples [first, last); requires first < last <= size().
  MinMax range(std::size_t first, std::size_t last) const;

  // Splits [first, last) into `columns` consecutive parts as even as integers allow (column c
  // starts at first + c * (last - first) / columns) and gives each part's exact min and max.
  // Requires last - first >= columns > 0.
  std::vector<MinMax> columns(std::size_t first, std::size_t last, std::size_t columns) const;

 private:
  MinMax rangeAtLevel(std::size_t level, std::size_t first, std::size_t last) const;

  std::span<const double> samples_;
  std::size_t firstBucket_ = kFirstBucket;
  std::vector<std::vector<MinMax>> levels_;  // levels_[k]: buckets of firstBucket_ * kFactor^k samples
};

// What a plot draws for the keys [firstKey, lastKey] (sample indices, clamped to the signal) on
// `columns` pixel columns: every sample (with one neighbour past each end) when there are at most
// two per column (exact), else each column's min then max, both at the column's first index, so a
// line through the points paints each column's full extent and no spike is lost.
struct PlotPoints {
  std::vector<double> keys;
  std::vector<double> values;
  bool exact = true;
};
// `doneWith(first, count)`, when given, is told of each column's samples once its extent is known
// (a mapped signal lets their pages go, so a redraw keeps one column's pages resident, not all).
using SamplesDone = std::function<void(std::size_t first, std::size_t count)>;
PlotPoints pointsForPlot(const MinMaxPyramid& pyramid, double firstKey, double lastKey, std::size_t columns,
                         const SamplesDone& doneWith = {});

// The same before a pyramid exists (a signal larger than memory, its pyramid still building): the
// same exact points where there are at most two samples a column, else each column's min and max
// over kPreviewProbesPerColumn evenly spaced samples, `exact` false. A coarse first view that reads
// a few thousand pages of a mapping, not the whole file; spikes between the probes are missed.
inline constexpr std::size_t kPreviewProbesPerColumn = 4;
PlotPoints previewPointsForPlot(std::span<const double> samples, double firstKey, double lastKey, std::size_t columns,
                                const SamplesDone& doneWith = {});

}  // namespace siglab
