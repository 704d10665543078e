#include "siglab/generate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>

namespace siglab {
namespace {

TEST(Generate, SameOptionsSameValuesOtherSeedOtherValues) {
  GenerateOptions options;
  options.count = 10001;
  options.seed = 42;
  const auto a = generateSignal(options);
  const auto b = generateSignal(options);
  EXPECT_EQ(a, b);
  options.seed = 43;
  EXPECT_NE(a, generateSignal(options));
  EXPECT_EQ(a.size(), 10001u);
}

TEST(Generate, IsASineWithNoiseOfTheAskedSpread) {
  GenerateOptions options;
  options.count = 200000;
  options.noiseSigma = 0.5;
  const auto values = generateSignal(options);
  const double step = 2.0 * 3.14159265358979323846 / options.period;
  double sum = 0.0, sumSq = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double noise = values[i] - std::sin(step * static_cast<double>(i));
    sum += noise;
    sumSq += noise * noise;
  }
  const double mean = sum / static_cast<double>(values.size());
  const double sigma = std::sqrt(sumSq / static_cast<double>(values.size()) - mean * mean);
  EXPECT_NEAR(mean, 0.0, 0.01);
  EXPECT_NEAR(sigma, 0.5, 0.01);
}

// Options whose sine phase overflows are refused, not written as NaN (issue 24: --period 1e-310).
TEST(Generate, RefusesPeriodsThatMakeNonFiniteSamples) {
  GenerateOptions options;
  options.count = 1000;
  options.period = 1e-310;
  EXPECT_THROW(generateSignal(options), std::invalid_argument);
  options.period = 1e-306;  // 2 pi / period is finite; times 999 it is not
  EXPECT_THROW(checkGenerateOptions(options), std::invalid_argument);
  options.period = 1e-300;
  for (double v : generateSignal(options)) ASSERT_TRUE(std::isfinite(v));
}

TEST(Generate, ZeroSamplesIsEmpty) { EXPECT_TRUE(generateSignal(GenerateOptions{}).empty()); }

}  // namespace
}  // namespace siglab
