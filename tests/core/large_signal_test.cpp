#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/sample_stream.hpp"
#include "siglab/large_signal_policy.hpp"
#include "siglab/mapped_reading.hpp"
#include "siglab/stream_statistics.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// statisticsParallel's stated bounds against the serial reference (statistics.hpp).
void expectWithinBounds(const Statistics& got, const Statistics& want, std::span<const double> x) {
  ASSERT_EQ(got.count, want.count);
  if (want.count == 0) return;
  double sumAbs = 0.0, sumSq = 0.0, maxAbs = 0.0;
  for (double v : x) sumAbs += std::abs(v), sumSq += v * v, maxAbs = std::max(maxAbs, std::abs(v));
  const double u = 0x1p-53, n = static_cast<double>(x.size());
  EXPECT_NEAR(got.sum, want.sum, kStatisticsSumBound * u * (sumAbs + n * maxAbs));
  EXPECT_NEAR(got.sumsq, want.sumsq, 8 * kStatisticsSumBound * u * (sumSq + n * maxAbs * maxAbs));
  EXPECT_NEAR(got.variance, want.variance, kStatisticsVarianceRelativeBound * want.variance + 1e-300);
  EXPECT_EQ(got.min, want.min);
  EXPECT_EQ(got.max, want.max);
  EXPECT_EQ(got.minIndex, want.minIndex);
  EXPECT_EQ(got.maxIndex, want.maxIndex);
}

TEST(MappedStatistics, EqualTheInMemoryStatisticsForEveryRangeAndBlockSize) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (std::size_t n : {1u, 7u, 2048u, 10001u}) {  // an empty file is refused by MappedSignal::open
    const std::vector<double> x = test::randomSignal(n, rng);
    const std::string file = dir.file("in" + std::to_string(n) + ".f64");
    writeSignal(file, x, WriteOptions{FileFormat::raw});
    ReadOptions raw;
    raw.rawType = SampleType::f64;
    const auto mapped = MappedSignal::open(file, raw, dir.file("cache"));
    std::uniform_int_distribution<std::size_t> pick(0, n);
    for (int trial = 0; trial < 8; ++trial) {
      std::size_t a = pick(rng), b = pick(rng);
      if (a > b) std::swap(a, b);
      const SampleRange range = trial == 0 ? SampleRange{} : trial == 1 ? SampleRange{a, a} : SampleRange{a, b};
      for (std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{4096}}) {
        SCOPED_TRACE("n " + std::to_string(n) + " range " + std::to_string(a) + ".." + std::to_string(b) +
                     " block " + std::to_string(block));
        const Statistics got = mappedStatistics(*mapped, range, {}, block);
        expectWithinBounds(got, statisticsSerial(x, range), selectRange(x, range));
      }
    }
  }
  ReadOptions raw;
  raw.rawType = SampleType::f64;
  const auto mapped = MappedSignal::open(dir.file("in7.f64"), raw, dir.file("cache"));
  EXPECT_THROW(static_cast<void>(mappedStatistics(*mapped, {3, 9})), std::out_of_range);
}

TEST(MappedStatistics, ACachedTextSignalReadsAgainAsRawFloat64) {
  std::mt19937_64 rng(test::freshSeed());
  test::TempDir dir;
  const std::vector<double> x = test::randomSignal(3001, rng);
  writeSignal(dir.file("in.txt"), x);
  const Signal whole = readSignal(dir.file("in.txt"));
  const auto mapped = MappedSignal::open(dir.file("in.txt"), {}, dir.file("cache"));
  ASSERT_TRUE(mapped->fromCache());
  const ReadOptions again = mappedFileOptions(*mapped, {});
  ASSERT_TRUE(again.rawType.has_value());
  const auto stream = openSampleStream(mapped->mappedPath(), again);
  const Statistics streamed = streamStatistics(*stream);
  expectWithinBounds(streamed, statisticsSerial(whole.samples), whole.samples);
  expectWithinBounds(mappedStatistics(*mapped), statisticsSerial(whole.samples), whole.samples);
  // A file mapped as it is reads again with the options it was opened with.
  writeSignal(dir.file("in.npy"), x);
  const auto npy = MappedSignal::open(dir.file("in.npy"), {}, dir.file("cache"));
  EXPECT_FALSE(mappedFileOptions(*npy, {}).rawType.has_value());
}

TEST(LargeSignalPolicy, SignalsBeyondAnEighthOfMemoryAreMappedAndCompareOffersARange) {
  constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;
  EXPECT_EQ(mappingThresholdBytes(24 * kGiB), 3 * kGiB);  // 4 copies: half of memory
  EXPECT_EQ(mappingThresholdBytes(0), std::numeric_limits<std::uint64_t>::max());  // unknown: in memory
  EXPECT_GT(physicalMemoryBytes(), 0u);
  EXPECT_EQ(float64BytesOf(1000, {}), 1000u);
  ReadOptions i16;
  i16.rawType = SampleType::i16;
  i16.rawOffset = 10;
  EXPECT_EQ(float64BytesOf(1010, i16), 4000u);  // 500 samples
  EXPECT_EQ(float64BytesOf(4, i16), 0u);
  EXPECT_EQ(samplesToCompareInMemory(3 * kGiB), 3 * kGiB / 8);
  EXPECT_EQ(samplesToCompareInMemory(0), 1u);
  const SampleRange same = compareRangeWithin({10, 20}, 10);
  EXPECT_EQ(same.begin, 10u);
  EXPECT_EQ(same.end, 20u);
  const SampleRange cut = compareRangeWithin({0, 101}, 10);
  EXPECT_EQ(cut.begin, 45u);
  EXPECT_EQ(cut.end, 55u);
}

}  // namespace
}  // namespace siglab
