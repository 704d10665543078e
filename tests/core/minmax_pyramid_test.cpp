#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "siglab/minmax_pyramid.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

MinMax scan(const std::vector<double>& x, std::size_t first, std::size_t last) {
  const auto [lo, hi] = std::minmax_element(x.begin() + static_cast<std::ptrdiff_t>(first),
                                            x.begin() + static_cast<std::ptrdiff_t>(last));
  return {*lo, *hi};
}

TEST(MinMaxPyramid, EveryColumnHoldsTheTrueMinAndMaxOfItsSamples) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 2u, 15u, 16u, 17u, 63u, 64u, 65u, 1000u, 4099u, 100003u}) {
    for (std::size_t maxFirstLevel : {MinMaxPyramid::kMaxFirstLevelBuckets, std::size_t{3}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      const MinMaxPyramid pyramid(x, {}, maxFirstLevel);  // 3: coarse first buckets, as for huge signals
      if (n >= 16) {
        EXPECT_LE(n / pyramid.firstBucket(), std::max<std::size_t>(maxFirstLevel, 1));
      }
      std::uniform_int_distribution<std::size_t> pick(0, n - 1);
      for (int trial = 0; trial < 20; ++trial) {
        std::size_t a = pick(rng), b = pick(rng);
        if (a > b) std::swap(a, b);
        ++b;
        std::uniform_int_distribution<std::size_t> pickColumns(1, b - a);
        const std::size_t columns = pickColumns(rng);
        const std::vector<MinMax> got = pyramid.columns(a, b, columns);
        ASSERT_EQ(got.size(), columns);
        for (std::size_t c = 0; c < columns; ++c) {
          const std::size_t from = a + c * (b - a) / columns, to = a + (c + 1) * (b - a) / columns;
          const MinMax want = scan(x, from, to);
          ASSERT_EQ(got[c].min, want.min) << "n " << n << " range [" << from << ", " << to << ")";
          ASSERT_EQ(got[c].max, want.max) << "n " << n << " range [" << from << ", " << to << ")";
        }
      }
    }
  }
}

TEST(MinMaxPyramid, ASingleSpikeSurvivesAFullyZoomedOutView) {
  std::vector<double> x(1'000'003, 0.0);
  x[777'777] = 5.0;
  x[12] = -3.0;
  const MinMaxPyramid pyramid(x);
  const PlotPoints points = pointsForPlot(pyramid, 0, static_cast<double>(x.size() - 1), 800);
  EXPECT_FALSE(points.exact);
  EXPECT_EQ(points.keys.size(), 1600u);
  EXPECT_EQ(*std::max_element(points.values.begin(), points.values.end()), 5.0);
  EXPECT_EQ(*std::min_element(points.values.begin(), points.values.end()), -3.0);
  EXPECT_TRUE(std::is_sorted(points.keys.begin(), points.keys.end()));
}

TEST(MinMaxPyramid, ZoomedInViewsGiveTheExactSamples) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(5000, rng);
  const MinMaxPyramid pyramid(x);
  const PlotPoints points = pointsForPlot(pyramid, 100.4, 299.6, 200);  // 201 samples on 200 columns
  ASSERT_TRUE(points.exact);
  ASSERT_EQ(points.keys.front(), 99.0);  // one neighbour past each end
  ASSERT_EQ(points.keys.back(), 301.0);
  for (std::size_t i = 0; i < points.keys.size(); ++i) {
    EXPECT_EQ(points.values[i], x[static_cast<std::size_t>(points.keys[i])]);
  }
}

TEST(MinMaxPyramid, ViewsPastTheEndsAreClampedAndEmptySignalsGiveNothing) {
  const std::vector<double> x = {1.0, -2.0, 3.0};
  const MinMaxPyramid pyramid(x);
  const PlotPoints points = pointsForPlot(pyramid, -50, 50, 100);
  EXPECT_EQ(points.keys, (std::vector<double>{0, 1, 2}));
  EXPECT_TRUE(pointsForPlot(MinMaxPyramid{}, 0, 10, 100).keys.empty());
  EXPECT_THROW(static_cast<void>(pyramid.range(2, 2)), std::out_of_range);
  EXPECT_THROW(static_cast<void>(pyramid.columns(0, 3, 4)), std::out_of_range);
}

TEST(MinMaxPyramid, PreviewPointsAreExactZoomedInAndProbeEachColumnZoomedOut) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::size_t n : {0u, 1u, 2u, 15u, 17u, 1000u, 4099u, 100003u}) {
    const std::vector<double> x = test::randomSignal(n, rng);
    const MinMaxPyramid pyramid(x);
    std::uniform_real_distribution<double> key(-10.0, static_cast<double>(n) + 10.0);
    for (int trial = 0; trial < 20; ++trial) {
      double a = key(rng), b = key(rng);
      if (a > b) std::swap(a, b);
      const std::size_t columns = 1 + rng() % 700;
      const PlotPoints preview = previewPointsForPlot(x, a, b, columns);
      const PlotPoints full = pointsForPlot(pyramid, a, b, columns);
      ASSERT_EQ(preview.exact, full.exact);
      ASSERT_EQ(preview.keys, full.keys);
      if (preview.exact) {
        EXPECT_EQ(preview.values, full.values);
        continue;
      }
      // Each column: min then max of its probes, which lie inside the column's true extent.
      for (std::size_t p = 0; p < preview.keys.size(); p += 2) {
        const auto first = static_cast<std::size_t>(preview.keys[p]);
        const std::size_t last = p + 2 < preview.keys.size() ? static_cast<std::size_t>(preview.keys[p + 2])
                                                             : static_cast<std::size_t>(std::clamp(std::ceil(b), 0.0, static_cast<double>(n - 1))) + 1;
        const std::size_t probes = std::min(kPreviewProbesPerColumn, last - first);
        double lo = x[first], hi = x[first];
        for (std::size_t k = 1; k < probes; ++k) {
          lo = std::min(lo, x[first + k * (last - first) / probes]);
          hi = std::max(hi, x[first + k * (last - first) / probes]);
        }
        EXPECT_EQ(preview.values[p], lo) << "column at " << first;
        EXPECT_EQ(preview.values[p + 1], hi) << "column at " << first;
        EXPECT_GE(preview.values[p], full.values[p]);
        EXPECT_LE(preview.values[p + 1], full.values[p + 1]);
      }
    }
  }
}

TEST(MinMaxPyramid, BucketsWithNaNOrInfinitiesGiveWhatMinmaxElementGives) {
  std::mt19937_64 rng(test::freshSeed());
  std::vector<double> x = test::randomSignal(4099, rng);
  const double specials[] = {std::nan(""), INFINITY, -INFINITY};
  for (std::size_t i = 0; i < x.size(); i += 37) x[i] = specials[(i / 37) % 3];
  const MinMaxPyramid pyramid(x);
  const std::size_t bucket = pyramid.firstBucket();
  const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; };
  for (std::size_t first = 0; first + bucket <= x.size(); first += bucket) {
    const MinMax got = pyramid.range(first, first + bucket);
    const MinMax want = scan(x, first, first + bucket);
    EXPECT_TRUE(same(got.min, want.min)) << "bucket at " << first << ": " << got.min << " vs " << want.min;
    EXPECT_TRUE(same(got.max, want.max)) << "bucket at " << first << ": " << got.max << " vs " << want.max;
  }
}

// A mapped file's pyramid is built on the mapping, then reads the ragged ends of a zoom's columns
// and its exact views through a reader (pread): every column still holds the min and max of its
// samples, every exact view the samples, and none of it comes from the span built on any more.
TEST(MinMaxPyramid, ReadingThroughAReaderAfterItIsBuiltGivesEachColumnsMinAndMax) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::size_t n : {17u, 4099u, 100003u}) {
    for (std::size_t maxFirstLevel : {MinMaxPyramid::kMaxFirstLevelBuckets, std::size_t{3}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      std::vector<double> builtOn = x;
      MinMaxPyramid pyramid(builtOn, {}, maxFirstLevel);
      std::size_t reads = 0;
      pyramid.readThrough([&x, &reads](std::size_t first, std::span<double> out) {
        ASSERT_LE(first + out.size(), x.size());
        ++reads;
        std::copy_n(x.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
      });
      std::ranges::fill(builtOn, std::nan(""));  // a read of the span now would show
      EXPECT_TRUE(pyramid.samples().empty());
      std::uniform_real_distribution<double> key(0.0, static_cast<double>(n - 1));
      for (int trial = 0; trial < 30; ++trial) {
        double a = key(rng), b = key(rng);
        if (a > b) std::swap(a, b);
        const std::size_t columns = 1 + rng() % 700;
        const PlotPoints got = pointsForPlot(pyramid, a, b, columns);
        const auto first = static_cast<std::size_t>(std::floor(a));
        const std::size_t last = static_cast<std::size_t>(std::ceil(b)) + 1, length = last - first;
        if (got.exact) {
          for (std::size_t i = 0; i < got.keys.size(); ++i) {
            ASSERT_EQ(got.values[i], x[static_cast<std::size_t>(got.keys[i])]) << "n " << n << " key " << got.keys[i];
          }
          continue;
        }
        ASSERT_EQ(got.keys.size(), 2 * columns);
        for (std::size_t c = 0; c < columns; ++c) {
          const MinMax want = scan(x, first + c * length / columns, first + (c + 1) * length / columns);
          ASSERT_EQ(got.values[2 * c], want.min) << "n " << n << " column " << c << " of " << columns;
          ASSERT_EQ(got.values[2 * c + 1], want.max) << "n " << n << " column " << c << " of " << columns;
        }
      }
      EXPECT_GT(reads, 0u);
    }
  }
}

TEST(MinMaxPyramid, BuildingStopsWhenCancelled) {
  const std::vector<double> x(1 << 21, 1.0);
  std::atomic<bool> cancel{true};
  Progress progress;
  progress.cancelFlag = &cancel;
  EXPECT_THROW(MinMaxPyramid(x, progress), Cancelled);
}

// A pyramid and a preview over samples that a reader gives (a mapped WAV file converted as it is
// read) equal the ones over the same samples in memory: every level, every exact view, every probe.
TEST(MinMaxPyramid, BuiltFromAReaderItGivesWhatTheSamplesGive) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::size_t n : {0u, 1u, 15u, 17u, 1000u, 4099u, 100003u}) {
    for (std::size_t maxFirstLevel : {MinMaxPyramid::kMaxFirstLevelBuckets, std::size_t{3}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      const SampleReader read = [&x](std::size_t first, std::span<double> out) {
        ASSERT_LE(first + out.size(), x.size());
        std::copy_n(x.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
      };
      const MinMaxPyramid inMemory(x, {}, maxFirstLevel);
      const MinMaxPyramid fromReader(n, read, {}, maxFirstLevel);
      ASSERT_EQ(fromReader.size(), n);
      ASSERT_EQ(fromReader.firstBucket(), inMemory.firstBucket());
      std::uniform_real_distribution<double> key(-10.0, static_cast<double>(n) + 10.0);
      for (int trial = 0; trial < 30; ++trial) {
        double a = key(rng), b = key(rng);
        if (a > b) std::swap(a, b);
        const std::size_t columns = 1 + rng() % 700;
        const PlotPoints want = pointsForPlot(inMemory, a, b, columns);
        const PlotPoints got = pointsForPlot(fromReader, a, b, columns);
        ASSERT_EQ(got.exact, want.exact);
        ASSERT_EQ(got.keys, want.keys);
        ASSERT_EQ(got.values, want.values) << "n " << n << " keys [" << a << ", " << b << "]";
        const PlotPoints preview = previewPointsForPlot(n, read, a, b, columns);
        const PlotPoints previewWant = previewPointsForPlot(x, a, b, columns);
        ASSERT_EQ(preview.keys, previewWant.keys);
        ASSERT_EQ(preview.values, previewWant.values);
      }
    }
  }
}

}  // namespace
}  // namespace siglab
