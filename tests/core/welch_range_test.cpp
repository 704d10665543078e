// core's one spectrum of a range (welchOfRange), as the desktop, the CLI and Python take it: against
// the long-double reference on awkward ranges, through a file's mapping in pieces, and cancelled.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>

#include "siglab/io/mapped_signal.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/welch_range.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

double maxAbs(std::span<const double> x) {
  double m = 0.0;
  for (double v : x) m = std::max(m, std::fabs(v));
  return m;
}

void expectWithinBound(const Spectrum& got, const Spectrum& want, const WelchOptions& o, std::span<const double> x,
                       const std::string& what) {
  ASSERT_EQ(got.power.size(), want.power.size()) << what;
  const double bound = spectrumAgreementBound(o, maxAbs(x), x.size());
  for (std::size_t k = 0; k < want.power.size(); ++k) {
    ASSERT_NEAR(got.power[k], want.power[k], bound) << what << " bin " << k;
    ASSERT_EQ(got.frequency[k], want.frequency[k]) << what << " bin " << k;
  }
}

TEST(WelchOfRange, AwkwardRangesInMemoryAgreeWithTheReferenceOfTheirSamples) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> x = test::randomSignal(1000, rng);
  for (const std::size_t segment : {1u, 2u, 17u, 64u, 100u}) {
    for (const SampleRange range : {SampleRange{0, 1000}, SampleRange{3, 3 + segment}, SampleRange{101, 998},
                                    SampleRange{999 - segment, 999}, SampleRange{7}}) {
      WelchOptions o;
      o.segment = segment;
      o.overlap = segment / 3;
      o.sampleRate = 48000.0;
      const std::size_t end = std::min<std::size_t>(range.end, x.size());
      const std::span<const double> samples = std::span(x).subspan(range.begin, end - range.begin);
      expectWithinBound(welchOfRange(WelchSource{x}, range, o), welchReference(samples, o), o, samples,
                        "segment " + std::to_string(segment) + " from " + std::to_string(range.begin) + " seed " +
                            std::to_string(seed));
    }
  }
}

TEST(WelchOfRange, RefusesARangeTheSignalOrTheSegmentDoesNotFit) {
  const std::vector<double> x(100, 1.0);
  WelchOptions o;
  o.segment = 32;
  EXPECT_THROW(welchOfRange(WelchSource{x}, {90, 100}, o), SpectrumOptionError);  // 10 samples < a segment
  EXPECT_THROW(welchOfRange(WelchSource{x}, {0, 101}, o), std::out_of_range);
  EXPECT_THROW(welchOfRange(WelchSource{x}, {60, 50}, o), std::out_of_range);
}

TEST(WelchOfRange, RunsTheEngineItIsGivenOnTheRangesSamples) {
  const std::vector<double> x{0, 1, 2, 3, 4, 5, 6, 7};
  std::vector<double> seen;
  const WelchRun spy = [&seen](std::span<const double> s, const WelchOptions& o, const Progress& p) {
    seen.assign(s.begin(), s.end());
    return welch(s, o, p);
  };
  WelchOptions o;
  o.segment = 2;
  welchOfRange(WelchSource{x}, {2, 6}, o, spy);
  EXPECT_EQ(seen, (std::vector<double>{2, 3, 4, 5}));  // in memory: one run over the range
}

// A file viewed through its mapping goes in pieces of whole segments (about 8 MiB each); their
// weighted average is the range's spectrum, and the pieces' progress climbs to the end.
TEST(WelchOfRange, AMappedSignalInPiecesAgreesWithTheSamplesInMemory) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> x = test::randomSignal((std::size_t{3} << 19) + 12345, rng);  // about 1.6M samples
  test::TempDir dir;
  writeSignal(dir.file("in.npy"), x);
  const auto mapped = MappedSignal::open(dir.file("in.npy"), {}, dir.file("cache"));
  WelchOptions o;
  o.segment = std::size_t{1} << 16;  // 32 segments a piece: 3 pieces of this range
  o.window = SpectrumWindow::hamming;
  const SampleRange range{777, x.size() - 5};
  std::vector<double> fractions;
  const Progress progress{[&fractions](double f) { fractions.push_back(f); }, nullptr};
  const std::span<const double> samples = std::span(x).subspan(range.begin, range.end - range.begin);
  const Spectrum fromFile = welchOfRange(WelchSource{{}, mapped.get()}, range, o, {}, progress);
  expectWithinBound(fromFile, welch(samples, o), o, samples, "seed " + std::to_string(seed));
  ASSERT_FALSE(fractions.empty());
  EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
  EXPECT_TRUE(std::any_of(fractions.begin(), fractions.end(), [](double f) { return f > 0.2 && f < 0.8; }))
      << "progress between the pieces";
}

TEST(WelchOfRange, ACancelStopsItInMemoryAndBetweenAMappedSignalsPieces) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> x = test::randomSignal(std::size_t{1} << 16, rng);
  WelchOptions o;
  o.segment = 16;  // 8191 segments
  std::atomic<bool> cancel{false};
  double latest = 0.0;
  const Progress cancelAtOnce{[&](double f) {
                                latest = std::max(latest, f);
                                cancel = true;
                              },
                              &cancel};
  EXPECT_THROW(welchOfRange(WelchSource{x}, {}, o, {}, cancelAtOnce), Cancelled);
  EXPECT_LT(latest, 0.5) << "the segments after Cancel are skipped";

  test::TempDir dir;
  writeSignal(dir.file("in.npy"), x);
  const auto mapped = MappedSignal::open(dir.file("in.npy"), {}, dir.file("cache"));
  int runs = 0;
  const WelchRun counted = [&runs](std::span<const double> s, const WelchOptions& opt, const Progress& p) {
    ++runs;
    return welch(s, opt, p);
  };
  cancel = true;
  EXPECT_THROW(welchOfRange(WelchSource{{}, mapped.get()}, {}, o, counted, Progress{{}, &cancel}), Cancelled);
  EXPECT_EQ(runs, 0);
}

}  // namespace
}  // namespace siglab
