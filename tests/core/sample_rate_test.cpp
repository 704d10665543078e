#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "siglab/io/signal_io.hpp"
#include "siglab/sample_rate.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(SampleRate, OnlyFinitePositiveRatesAreValid) {
  EXPECT_TRUE(isValidSampleRate(44100.0));
  EXPECT_TRUE(isValidSampleRate(1e-3));
  for (double bad : {0.0, -1.0, std::numeric_limits<double>::infinity(), std::nan("")}) EXPECT_FALSE(isValidSampleRate(bad));
  try {
    checkSampleRate(0.0, "--rate");
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "--rate must be a finite number of Hz greater than 0, got 0");
  }
}

TEST(SampleRate, SiPrefixes) {
  EXPECT_EQ(withSiPrefix(0.0015, "s"), "1.5 ms");
  EXPECT_EQ(withSiPrefix(44100.0, "Hz"), "44.1 kHz");
  EXPECT_EQ(withSiPrefix(2.5e-7, "s"), "250 ns");
  EXPECT_EQ(withSiPrefix(0.0, "s"), "0 s");
  EXPECT_EQ(withSiPrefix(-3.0, "s"), "-3 s");
  EXPECT_EQ(withSiPrefix(0.99999, "s"), "1 s");  // rounded up across a prefix
  EXPECT_EQ(withSiPrefix(12.0e-6, "s"), "12 \u00b5s");
}

TEST(SampleRate, ReadOptionsGiveTextNpyAndRawARateAndReplaceWavs) {
  test::TempDir dir;
  const std::vector<double> x{1.0, 2.0, 3.0};
  writeSignal(dir.file("a.txt"), x);
  writeSignal(dir.file("a.npy"), x);
  writeSignal(dir.file("a.raw"), x);
  WriteOptions wav;
  wav.sampleRate = 44100.0;
  writeSignal(dir.file("a.wav"), x, wav);
  EXPECT_FALSE(readSignal(dir.file("a.txt")).sampleRate);
  EXPECT_EQ(readSignal(dir.file("a.wav")).sampleRate, 44100.0);
  ReadOptions options;
  options.sampleRate = 1000.0;
  EXPECT_EQ(readSignal(dir.file("a.txt"), options).sampleRate, 1000.0);
  EXPECT_EQ(readSignal(dir.file("a.npy"), options).sampleRate, 1000.0);
  EXPECT_EQ(readSignal(dir.file("a.wav"), options).sampleRate, 1000.0);
  options.rawType = SampleType::f64;
  EXPECT_EQ(readSignal(dir.file("a.raw"), options).sampleRate, 1000.0);
  options.sampleRate = -5.0;
  EXPECT_THROW(readSignal(dir.file("a.raw"), options), std::invalid_argument);
}

}  // namespace
}  // namespace siglab
