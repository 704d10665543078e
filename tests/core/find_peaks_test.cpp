// find_peaks on long signals in memory, searched in stretches on every core (peaksRisingIn): the
// same rows as SciPy 1.10's definitions (transcribed below: _local_maxima_1d, then
// _peak_prominences per peak) and as PeakFinder fed the signal whole or in short blocks, with
// plateaus and ties crossing the stretches' and the ranges' cuts.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "siglab/find_peaks.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// SciPy's find_peaks(x, prominence=..., wlen=...) as its Cython does it: every local maximum (a flat
// one at its plateau's middle), then each one's bases within wlen // 2 either side, stopping at a
// higher sample.
std::vector<PeakRow> scipyProminences(const std::vector<double>& x, double minProminence, std::uint64_t half) {
  std::vector<PeakRow> rows;
  const auto n = static_cast<std::int64_t>(x.size());
  for (std::int64_t i = 1; i < n - 1; ++i) {
    if (!(x[i - 1] < x[i])) continue;
    std::int64_t ahead = i + 1;
    while (ahead < n - 1 && x[ahead] == x[i]) ++ahead;
    if (!(x[ahead] < x[i])) continue;
    const std::int64_t p = (i + ahead - 1) / 2;
    i = ahead;
    const auto h = static_cast<std::int64_t>(half);
    const std::int64_t iMin = std::max<std::int64_t>(0, p - h), iMax = std::min(n - 1, p + h);
    PeakRow row;
    row.index = static_cast<std::uint64_t>(p);
    row.height = x[p];
    double leftMin = x[p], rightMin = x[p];
    std::int64_t left = p, right = p;
    for (std::int64_t k = p; k >= iMin && x[k] <= x[p]; --k) {
      if (x[k] < leftMin) leftMin = x[k], left = k;
    }
    for (std::int64_t k = p; k <= iMax && x[k] <= x[p]; ++k) {
      if (x[k] < rightMin) rightMin = x[k], right = k;
    }
    row.prominence = x[p] - std::max(leftMin, rightMin);
    row.leftBase = static_cast<double>(left);
    row.rightBase = static_cast<double>(right);
    if (row.prominence >= minProminence) rows.push_back(row);
  }
  return rows;
}

std::vector<PeakRow> found(const PeakOptions& o, const std::vector<double>& x, std::size_t block) {
  PeakFinder finder(o, x.size());
  std::vector<PeakRow> rows;
  for (std::size_t at = 0; at < x.size(); at += block) {
    finder.feed(std::span<const double>(x).subspan(at, std::min(block, x.size() - at)));
    for (const PeakRow& r : finder.take()) rows.push_back(r);
  }
  finder.finish();
  for (const PeakRow& r : finder.take()) rows.push_back(r);
  return rows;
}

// peaksRisingIn over [0, n) in three uneven ranges, their rows one after another.
std::vector<PeakRow> risingInRanges(const PeakOptions& o, const std::vector<double>& x) {
  std::vector<PeakRow> rows;
  std::vector<std::vector<PeakRow>> stretches;
  const std::uint64_t cuts[] = {0, 12345, x.size() / 2 + 3, x.size()};
  for (int k = 0; k < 3; ++k) {
    peaksRisingIn(x, o, cuts[k], cuts[k + 1], stretches);
    for (const auto& stretch : stretches) rows.insert(rows.end(), stretch.begin(), stretch.end());
  }
  return rows;
}

void expectSameRows(const std::vector<PeakRow>& got, const std::vector<PeakRow>& want, const char* what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t k = 0; k < got.size(); ++k) {
    ASSERT_EQ(got[k].index, want[k].index) << what << ", row " << k;
    ASSERT_EQ(got[k].height, want[k].height) << what << ", row " << k;
    ASSERT_EQ(got[k].prominence, want[k].prominence) << what << ", peak " << got[k].index;
    ASSERT_EQ(got[k].leftBase, want[k].leftBase) << what << ", peak " << got[k].index;
    ASSERT_EQ(got[k].rightBase, want[k].rightBase) << what << ", peak " << got[k].index;
    ASSERT_EQ(got[k].width, want[k].width) << what << ", peak " << got[k].index;
    ASSERT_EQ(got[k].leftIp, want[k].leftIp) << what << ", peak " << got[k].index;
    ASSERT_EQ(got[k].rightIp, want[k].rightIp) << what << ", peak " << got[k].index;
  }
}

// Noise, noise rounded to a tenth (ties and short plateaus everywhere), stretches held flat for
// hundreds of samples (plateaus that are peaks, rises and falls crossing any cut), a random walk
// (walks past many lower peaks, through the gaps' valleys), and noise with NaN and signed zeros.
std::vector<std::vector<double>> longSignals(std::size_t n, std::mt19937_64& rng) {
  std::normal_distribution<double> normal;
  std::uniform_int_distribution<int> oneIn(0, 399);
  std::vector<double> noise(n), rounded(n), flat(n), walk(n), holes(n);
  double position = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    noise[i] = normal(rng);
    rounded[i] = std::round(noise[i] * 3) / 10;
    walk[i] = position += normal(rng);
    const int draw = oneIn(rng);
    holes[i] = draw == 0 ? std::nan("") : draw == 1 ? -0.0 : draw == 2 ? 0.0 : noise[i];
  }
  std::uniform_int_distribution<std::size_t> length(1, 3000);
  for (std::size_t i = 0; i < n;) {
    const std::size_t run = std::min(n - i, length(rng));
    std::fill_n(flat.begin() + static_cast<std::ptrdiff_t>(i), run, std::round(normal(rng) * 2));
    i += run;
  }
  return {noise, rounded, flat, walk, holes};
}

TEST(FindPeaks, LongSignalsGiveScipysPeaksProminencesAndBases) {
  std::mt19937_64 rng(test::freshSeed());
  const std::size_t n = (std::size_t{1} << 18) + 37;  // sixteen stretches, and an odd end
  for (const auto& x : longSignals(n, rng)) {
    for (const auto& [prominence, wlen] : {std::pair{1.0, 101.0}, std::pair{0.0, 7.0}, std::pair{0.5, 4001.0}}) {
      PeakOptions o;
      o.prominence = prominence;
      o.wlen = wlen;
      const auto want = scipyProminences(x, prominence, static_cast<std::uint64_t>(wlen) / 2);
      expectSameRows(risingInRanges(o, x), want, "in memory, on every core");
      expectSameRows(found(o, x, x.size()), want, "fed whole");
      expectSameRows(found(o, x, 4099), want, "blocks of 4099");
    }
  }
}

TEST(FindPeaks, EveryConditionGivesTheSameRowsInMemoryWholeOrInShortBlocks) {
  std::mt19937_64 rng(test::freshSeed());
  const std::size_t n = (std::size_t{1} << 17) + 11;
  std::vector<PeakOptions> options(5);
  options[0].height = 0.3;
  options[1].threshold = 0.05;
  options[1].distance = 5;
  options[2].width = 1.5;
  options[2].wlen = 31;
  options[2].relHeight = 0.7;
  options[3].prominence = 0.2;  // no wlen: bases as far as the signal goes
  options[4].prominenceMax = 2.0;
  options[4].height = 0.0;
  options[4].wlen = 51;
  for (const auto& x : longSignals(n, rng)) {
    for (const PeakOptions& o : options) {
      const std::vector<PeakRow> blocks = found(o, x, 1000);
      expectSameRows(found(o, x, x.size()), blocks, "fed whole");
      if (!o.distance) expectSameRows(risingInRanges(o, x), blocks, "in memory, on every core");
    }
  }
}

TEST(FindPeaks, ShortSignalsAndEmptyRangesGiveNoRowsInMemoryButScipys) {
  std::vector<std::vector<PeakRow>> stretches(3, std::vector<PeakRow>(2));  // left from an earlier round: cleared
  PeakOptions o;
  o.prominence = 0.0;
  o.wlen = 101;
  for (const std::vector<double>& x : {std::vector<double>{}, {1.0}, {0.0, 1.0}, {0.0, 1.0, 0.0}, {0.0, 2.0, 2.0, 1.0}}) {
    std::vector<PeakRow> rows;
    peaksRisingIn(x, o, 0, x.size(), stretches);
    for (const auto& stretch : stretches) rows.insert(rows.end(), stretch.begin(), stretch.end());
    expectSameRows(rows, scipyProminences(x, 0.0, 50), "short");
    expectSameRows(rows, found(o, x, 1), "short, one sample a block");
  }
  o.distance = 2;
  EXPECT_THROW(peaksRisingIn(std::vector<double>(10), o, 0, 10, stretches), std::invalid_argument);
}

}  // namespace
}  // namespace siglab
