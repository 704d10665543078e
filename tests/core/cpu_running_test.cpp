#include "shared_helpers.hpp"
#include "siglab/cpu_running.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "siglab/comparison.hpp"
#include "siglab/cpu_serial.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// The exact window sums (in long double, 64-bit mantissa) times the tap. Each window adds its own
// samples, whole 64-sample blocks of them as one block sum (each block summed once): a long window
// (W = 4097 over 300007 samples) costs a twentieth of adding every sample (issue 30: CI time).
std::vector<long double> longDoubleReference(const std::vector<double>& in, const FilterSpec& spec) {
  if (in.empty()) return {};
  const auto n = static_cast<std::int64_t>(in.size());
  const auto r = static_cast<std::int64_t>(spec.radius());
  // The signal as the boundary mode extends it: sample k (from -r to n + r - 1) at k + r.
  std::vector<long double> extended(static_cast<std::size_t>(n + 2 * r));
  for (std::int64_t k = -r; k < n + r; ++k) {
    const std::int64_t index = boundaryIndex(k, n, spec.mode);
    extended[static_cast<std::size_t>(k + r)] = index == kSkipSample ? 0.0L : in[static_cast<std::size_t>(index)];
  }
  constexpr std::size_t kBlock = 64;
  std::vector<long double> blockSums(extended.size() / kBlock, 0.0L);
  for (std::size_t b = 0; b < blockSums.size(); ++b) {
    for (std::size_t j = 0; j < kBlock; ++j) blockSums[b] += extended[b * kBlock + j];
  }
  std::vector<long double> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const std::size_t end = i + static_cast<std::size_t>(2 * r + 1);
    long double sum = 0.0L;
    std::size_t k = i;
    for (; k < end && k % kBlock != 0; ++k) sum += extended[k];
    for (; k + kBlock <= end; k += kBlock) sum += blockSums[k / kBlock];
    for (; k < end; ++k) sum += extended[k];
    out[i] = sum * static_cast<long double>(spec.taps[0]);
  }
  return out;
}

void expectWithinBound(const std::vector<double>& in, const FilterSpec& spec, const std::string& what) {
  std::vector<double> out(in.size(), std::numeric_limits<double>::quiet_NaN());
  filterRunning(in, spec, out);
  const std::vector<long double> exact = longDoubleReference(in, spec);
  long double maxAbs = 0.0L, worst = 0.0L;
  for (double v : in) maxAbs = std::max(maxAbs, std::fabs(static_cast<long double>(v)));
  for (std::size_t i = 0; i < in.size(); ++i) {
    const long double error = std::fabs(static_cast<long double>(out[i]) - exact[i]);
    worst = std::isnan(out[i]) ? std::numeric_limits<long double>::infinity() : std::max(worst, error);
  }
  const long double tapMass = std::fabs(static_cast<long double>(spec.taps[0])) * spec.window();
  EXPECT_LE(worst, kRunningSumRelativeError * tapMass * maxAbs) << what;
}

using test::kModes;

TEST(CpuRunning, WithinItsBoundOfTheExactMeanForEveryModeAndAwkwardSize) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  for (BoundaryMode mode : kModes) {
    for (std::size_t w : {1u, 3u, 5u, 101u, 1001u}) {
      for (std::size_t n : {0u, 1u, 2u, 4u, 100u, 1000u, 9999u}) {
        expectWithinBound(test::randomSignal(n, rng), makeMeanFilter(w, mode),
                          std::string(toString(mode)) + " W=" + std::to_string(w) + " N=" + std::to_string(n));
      }
    }
  }
}

TEST(CpuRunning, LargeOffsetSmallNoiseAndWindowsFarLongerThanTheSignal) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  std::vector<double> offset = test::randomSignal(3000, rng, 1e-3);
  for (double& v : offset) v += 1e9;
  for (BoundaryMode mode : kModes) {
    expectWithinBound(offset, makeMeanFilter(1001, mode), "offset " + std::string(toString(mode)));
    expectWithinBound(test::randomSignal(300, rng), makeMeanFilter(20001, mode), "W >> N " + std::string(toString(mode)));
  }
}

TEST(CpuRunning, AcrossThreadPieces) {
  // Long enough that the work is cut into pieces, each starting its own running sums.
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::vector<double> in = test::randomSignal(300007, rng);
  expectWithinBound(in, makeMeanFilter(7, BoundaryMode::Reflect), "W=7");
  expectWithinBound(in, makeMeanFilter(4097, BoundaryMode::Wrap), "W=4097");
}

TEST(CpuRunning, Float32StaysWithinToleranceOfSerial) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  const std::vector<double> wide = test::randomSignal(70001, rng);
  const std::vector<float> in(wide.begin(), wide.end());
  CpuRunningBackend backend;
  for (Accumulator acc : {Accumulator::SampleType, Accumulator::Float64}) {
    FilterSpec spec = makeMeanFilter(301, BoundaryMode::Mirror);
    spec.accumulator = acc;
    std::vector<float> reference(in.size()), out(in.size(), std::nanf(""));
    filterSerial(in, spec, reference);
    filterRunning(in, spec, out);
    double worst = 0.0;
    for (std::size_t i = 0; i < in.size(); ++i) {
      worst = std::isnan(out[i]) ? INFINITY : std::max(worst, std::fabs(double(out[i]) - double(reference[i])));
    }
    EXPECT_LE(worst, backend.toleranceFloat32(spec, 100.0));
  }
}

TEST(CpuRunning, NonUniformTapsAndNonFiniteSamplesAreRefusedWithTheReason) {
  CpuRunningBackend backend;
  const std::vector<double> in = {1, 2, 3};
  std::vector<double> out(3);
  const FilterSpec gaussianLike{{0.25, 0.5, 0.25}, BoundaryMode::Zero};
  EXPECT_THROW(filterRunning(in, gaussianLike, out), std::invalid_argument);
  EXPECT_NE(backend.whyNot(gaussianLike, SampleType::f64).find("uniform"), std::string::npos);
  EXPECT_EQ(backend.whyNot(makeMeanFilter(3), SampleType::f64), "");
  const std::vector<double> withNaN = {1, std::nan(""), 3};
  try {
    backend.filter(withNaN, makeMeanFilter(3), out, RunOptions{});
    ADD_FAILURE() << "a NaN was taken into the running sum";
  } catch (const EngineUnavailable& e) {
    EXPECT_NE(std::string(e.what()).find("finite"), std::string::npos);
  }
  BackendList backends;
  backends.push_back(std::make_unique<CpuRunningBackend>());
  const Comparison c = runComparison(backends, in, gaussianLike, CompareOptions{});
  EXPECT_EQ(c.find("cpu-running")->run.status, RunStatus::Unavailable);
  EXPECT_NE(c.find("cpu-running")->run.message.find("uniform"), std::string::npos);
}

TEST(CpuRunning, ComparisonAcceptsItWithinToleranceAndSaysItIsNotBitIdentical) {
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(5003, rng);
  BackendList backends;
  backends.push_back(std::make_unique<CpuRunningBackend>());
  const Comparison c = runComparison(backends, in, makeMeanFilter(501), CompareOptions{{}, {1, 1}});
  const BackendResult* running = c.find("cpu-running");
  ASSERT_NE(running, nullptr);
  EXPECT_EQ(running->run.status, RunStatus::Ok);
  EXPECT_GT(running->tolerance, 0.0);
  EXPECT_TRUE(running->agrees) << running->agreement.maxAbsDiff << " > " << running->tolerance;
  EXPECT_FALSE(running->agreement.bitIdentical());  // 501 sums of random values round differently
}

}  // namespace
}  // namespace siglab
