#include "siglab/comparison.hpp"
#include "siglab/cpu_serial.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace siglab {
namespace {

std::vector<double> filtered(const std::vector<double>& in, const FilterSpec& spec) {
  std::vector<double> out(in.size(), std::numeric_limits<double>::quiet_NaN());
  filterSerial(in, spec, out);
  return out;
}

// Taps 10^4 .. 10^0 write the five samples a window sees as the digits of the output, so each edge
// can be read off by hand: x(i-2) x(i-1) x(i) x(i+1) x(i+2).
FilterSpec digitTaps(BoundaryMode mode) { return FilterSpec{{10000, 1000, 100, 10, 1}, mode}; }

TEST(CpuSerial, EdgesOfEveryModeByHand) {
  const std::vector<double> abcd = {1, 2, 3, 4};
  struct Case {
    BoundaryMode mode;
    std::vector<double> expected;
  };
  const std::vector<Case> cases = {
      {BoundaryMode::Zero, {123, 1234, 12340, 23400}},
      {BoundaryMode::Reflect, {21123, 11234, 12344, 23443}},
      {BoundaryMode::Mirror, {32123, 21234, 12343, 23432}},
      {BoundaryMode::Nearest, {11123, 11234, 12344, 23444}},
      {BoundaryMode::Wrap, {34123, 41234, 12341, 23412}},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(filtered(abcd, digitTaps(c.mode)), c.expected) << "mode " << toString(c.mode);
  }
}

TEST(CpuSerial, MeanOfWindowFiveAtBothEdgesIsTheSeedsLoop) {
  const std::vector<double> in = {0.5, -1.25, 2.0, 3.75, -0.5, 8.0, 1.0};
  const FilterSpec spec = makeMeanFilter(5);
  const double t = 1.0 / 5.0;
  const std::vector<double> out = filtered(in, spec);
  // The seed sums tap * sample in window order from 0.0, skipping samples outside the signal.
  EXPECT_EQ(out[0], ((0.0 + t * 0.5) + t * -1.25) + t * 2.0);
  EXPECT_EQ(out[1], (((0.0 + t * 0.5) + t * -1.25) + t * 2.0) + t * 3.75);
  EXPECT_EQ(out[3], ((((0.0 + t * -1.25) + t * 2.0) + t * 3.75) + t * -0.5) + t * 8.0);
  EXPECT_EQ(out[5], (((0.0 + t * 3.75) + t * -0.5) + t * 8.0) + t * 1.0);
  EXPECT_EQ(out[6], ((0.0 + t * -0.5) + t * 8.0) + t * 1.0);
}

TEST(CpuSerial, EmptySignalGivesEmptyResult) {
  EXPECT_TRUE(filtered({}, makeMeanFilter(5)).empty());
}

TEST(CpuSerial, OneSampleSeesOnlyItself) {
  EXPECT_EQ(filtered({7.0}, digitTaps(BoundaryMode::Zero)), std::vector<double>{700.0});
  EXPECT_EQ(filtered({7.0}, digitTaps(BoundaryMode::Reflect)), std::vector<double>{77777.0});
  EXPECT_EQ(filtered({7.0}, digitTaps(BoundaryMode::Mirror)), std::vector<double>{77777.0});
}

TEST(CpuSerial, SignalShorterThanWindow) {
  // W = 5 over two samples: every output reaches past both ends.
  EXPECT_EQ(filtered({1, 2}, digitTaps(BoundaryMode::Zero)), (std::vector<double>{120, 1200}));
  EXPECT_EQ(filtered({1, 2}, digitTaps(BoundaryMode::Wrap)), (std::vector<double>{12121, 21212}));
  EXPECT_EQ(filtered({1, 2}, digitTaps(BoundaryMode::Nearest)), (std::vector<double>{11122, 11222}));
}

TEST(CpuSerial, WindowOneCopiesTheSignal) {
  const std::vector<double> in = {3.5, -2.25, 1e300, 0.0};
  EXPECT_EQ(filtered(in, makeMeanFilter(1)), in);
}

TEST(CpuSerial, RejectsEvenOrEmptyWindowsAndSizeMismatch) {
  EXPECT_THROW(makeMeanFilter(4), std::invalid_argument);
  EXPECT_THROW(makeMeanFilter(0), std::invalid_argument);
  std::vector<double> in(3), out(2);
  EXPECT_THROW(filterSerial(in, makeMeanFilter(3), out), std::invalid_argument);
  EXPECT_THROW(filterSerial(in, FilterSpec{{1.0, std::nan("")}, BoundaryMode::Zero}, in), std::invalid_argument);
}

TEST(CpuSerial, Float32SumsInFloatUnlessFloat64IsAsked) {
  // 2^24 + 1 rounds back to 2^24 in float, twice; in double the sum is 2^24 + 2, which float holds.
  const std::vector<float> in = {16777216.0f, 1.0f, 1.0f};
  FilterSpec spec{{1.0, 1.0, 1.0}, BoundaryMode::Zero};
  std::vector<float> out(3, std::nanf(""));
  filterSerial(in, spec, out);
  EXPECT_EQ(out, (std::vector<float>{16777216.0f, 16777216.0f, 2.0f}));
  spec.accumulator = Accumulator::Float64;
  filterSerial(in, spec, out);
  EXPECT_EQ(out, (std::vector<float>{16777216.0f, 16777218.0f, 2.0f}));
}

TEST(CpuSerial, BackendFiltersOnceAndComparisonMeasuresTheRepeats) {
  CpuSerialBackend backend;
  const std::vector<double> in = {1, 2, 3, 4};
  std::vector<double> out(4, std::numeric_limits<double>::quiet_NaN());
  const FilterPass pass = backend.filter(in, digitTaps(BoundaryMode::Zero), out, RunOptions{});
  EXPECT_GE(pass.phases.totalMs, 0.0);
  EXPECT_TRUE(pass.splits.at.empty());  // one serial sweep: no cuts
  EXPECT_EQ(out, (std::vector<double>{123, 1234, 12340, 23400}));

  BackendList backends;
  backends.push_back(std::make_unique<CpuSerialBackend>());
  const Comparison c = runComparison(backends, in, digitTaps(BoundaryMode::Zero), CompareOptions{{}, {1, 3}});
  const FilterRun& run = c.results.front().run;
  EXPECT_EQ(run.status, RunStatus::Ok);
  EXPECT_EQ(run.kernel.samples, 3);
  EXPECT_LE(run.kernel.minMs, run.kernel.medianMs);
  EXPECT_LE(run.kernel.medianMs, run.kernel.maxMs);
  EXPECT_EQ(c.reference, (std::vector<double>{123, 1234, 12340, 23400}));
}

}  // namespace
}  // namespace siglab
