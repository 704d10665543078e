#pragma once
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

#include "siglab/progress.hpp"

namespace siglab {

// Writes samples [first, first + out.size()) of a signal into `out`: a signal whose samples are
// not doubles in memory (a WAV file's mapping, converted as it is read). Safe to call on several
// threads at once.
using SampleReader = std::function<void(std::size_t first, std::span<double> out)>;

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
  // The same over `size` samples that `read` gives (kept: the ragged ends of a range read through it).
  MinMaxPyramid(std::size_t size, SampleReader read, const Progress& progress = {},
                std::size_t maxFirstLevelBuckets = kMaxFirstLevelBuckets,
                const std::function<void(std::size_t first, std::size_t count)>& doneWith = {});

  // From now on the samples a range needs beyond whole buckets (its ragged ends, an exact view)
  // come through `read`, not the span built on: a mapped file's pread reads the kilobytes asked
  // for, where a fault on the mapping reads megabytes around a page that left the page cache.
  void readThrough(SampleReader read);

  std::size_t size() const { return size_; }
  std::size_t firstBucket() const { return firstBucket_; }  // samples a first-level bucket spans
  std::span<const double> samples() const { return samples_; }  // empty when built from a reader
  // Samples [first, first + out.size()) into `out`, from the samples or through the reader.
  void read(std::size_t first, std::span<double> out) const;

  // The exact min and max of samples [first, last); requires first < last <= size().
  MinMax range(std::size_t first, std::size_t last) const;

  // Splits [first, last) into `columns` consecutive parts as even as integers allow (column c
  // starts at first + c * (last - first) / columns) and gives each part's exact min and max.
  // Requires last - first >= columns > 0.
  std::vector<MinMax> columns(std::size_t first, std::size_t last, std::size_t columns) const;

 private:
  MinMax rangeAtLevel(std::size_t level, std::size_t first, std::size_t last) const;
  MinMax samplesMinMax(std::size_t first, std::size_t last) const;
  void build(const Progress& progress, std::size_t maxFirstLevelBuckets,
             const std::function<void(std::size_t, std::size_t)>& doneWith);

  std::span<const double> samples_;
  SampleReader read_;  // set instead of samples_ for a signal read in pieces
  std::size_t size_ = 0;
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
// The same for `size` samples that `read` gives.
PlotPoints previewPointsForPlot(std::size_t size, const SampleReader& read, double firstKey, double lastKey,
                                std::size_t columns, const SamplesDone& doneWith = {});

}  // namespace siglab
