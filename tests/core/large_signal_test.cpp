#include <gtest/gtest.h>
#include <sndfile.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>

#include "siglab/errors.hpp"
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

// `frames` frames of `channels` random ints in `subtype` (libsndfile keeps their top bits).
void writeRandomWav(const std::string& path, int subtype, int channels, std::size_t frames, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> anyInt(std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
  std::vector<int> values(frames * static_cast<std::size_t>(channels));
  for (int& v : values) v = anyInt(rng);
  SF_INFO info{};
  info.samplerate = 22050;
  info.channels = channels;
  info.format = SF_FORMAT_WAV | subtype;
  SNDFILE* file = sf_open(path.c_str(), SFM_WRITE, &info);
  ASSERT_NE(file, nullptr) << sf_strerror(nullptr);
  EXPECT_EQ(sf_writef_int(file, values.data(), static_cast<sf_count_t>(frames)), static_cast<sf_count_t>(frames));
  sf_close(file);
}

TEST(MappedWav, ViewedFromItsMappingConvertedAsReadSignalConvertsItWithNoCacheFile) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  for (const int subtype : {SF_FORMAT_PCM_16, SF_FORMAT_PCM_24, SF_FORMAT_PCM_U8, SF_FORMAT_FLOAT}) {
    for (const std::size_t frames : {std::size_t{1}, std::size_t{5}, std::size_t{100003}}) {
      const std::string file = dir.file("in" + std::to_string(subtype) + "-" + std::to_string(frames) + ".wav");
      writeRandomWav(file, subtype, 2, frames, rng);
      ReadOptions second;
      second.channel = 2;
      const Signal whole = readSignal(file, second);
      const auto mapped = MappedSignal::open(file, second, dir.file("cache"));
      EXPECT_FALSE(mapped->fromCache());
      EXPECT_TRUE(mapped->converted());
      EXPECT_FALSE(std::filesystem::exists(dir.file("cache")));
      EXPECT_EQ(mapped->sampleRate(), whole.sampleRate);
      ASSERT_EQ(mapped->size(), whole.samples.size());
      std::vector<double> all(frames, std::numeric_limits<double>::quiet_NaN());
      mapped->read(0, all);
      EXPECT_EQ(std::memcmp(all.data(), whole.samples.data(), frames * sizeof(double)), 0) << file;
      std::vector<double> tail((frames + 1) / 2, std::numeric_limits<double>::quiet_NaN());
      mapped->read(frames - tail.size(), tail);
      EXPECT_EQ(std::memcmp(tail.data(), whole.samples.data() + frames - tail.size(), tail.size() * sizeof(double)), 0);
      for (std::size_t block : {frames < 10 ? std::size_t{1} : std::size_t{4099}, std::size_t{7}}) {
        expectWithinBounds(mappedStatistics(*mapped, {}, {}, block), statisticsSerial(whole.samples), whole.samples);
      }
      mapped->release(0, frames);
      std::vector<double> past(2);
      EXPECT_THROW(mapped->read(frames - 1, past), std::out_of_range);
    }
  }
  // An encoding whose frames vary in size still goes through the cache.
  SF_INFO info{};
  info.samplerate = 8000;
  info.channels = 1;
  info.format = SF_FORMAT_WAV | SF_FORMAT_IMA_ADPCM;
  SNDFILE* adpcm = sf_open(dir.file("adpcm.wav").c_str(), SFM_WRITE, &info);
  ASSERT_NE(adpcm, nullptr) << sf_strerror(nullptr);
  std::vector<short> tone(4000);
  for (std::size_t i = 0; i < tone.size(); ++i) tone[i] = static_cast<short>(1000.0 * std::sin(0.01 * static_cast<double>(i)));
  sf_writef_short(adpcm, tone.data(), static_cast<sf_count_t>(tone.size()));
  sf_close(adpcm);
  const auto cached = MappedSignal::open(dir.file("adpcm.wav"), {}, dir.file("cache"));
  EXPECT_TRUE(cached->fromCache());
  EXPECT_FALSE(cached->converted());
  const Signal whole = readSignal(dir.file("adpcm.wav"));
  ASSERT_EQ(cached->size(), whole.samples.size());
  EXPECT_EQ(std::memcmp(cached->samples().data(), whole.samples.data(), whole.samples.size() * sizeof(double)), 0);
  ReadOptions missing;
  missing.channel = 3;
  EXPECT_THROW(MappedSignal::open(dir.file("in" + std::to_string(SF_FORMAT_PCM_16) + "-5.wav"), missing, dir.file("cache")),
               InputError);
}

}  // namespace
}  // namespace siglab
