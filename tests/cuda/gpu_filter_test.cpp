// Every GPU kernel against cpu-serial, bit for bit, on fresh random inputs of awkward sizes, with
// the output poisoned before each run so an unwritten element shows.
#include <gtest/gtest.h>

#include <bit>
#include <limits>
#include <random>

#include "shared_helpers.hpp"
#include "engine_test_support.hpp"
#include "gpu_test_support.hpp"
#include "siglab/comparison.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kAllModes;

std::size_t countBitMismatches(const std::vector<double>& a, const std::vector<double>& b) {
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    mismatches += std::bit_cast<std::uint64_t>(a[i]) != std::bit_cast<std::uint64_t>(b[i]);
  }
  return mismatches;
}

FilterSpec randomTaps(std::size_t window, BoundaryMode mode, std::mt19937_64& rng) {
  FilterSpec spec{test::randomSignal(window, rng, 1.0), mode};
  return spec;
}

// Runs `backend` once and expects cpu-serial's exact bits.
void expectBitIdentical(FilterBackend& backend, const std::vector<double>& in, const FilterSpec& spec,
                        int blockSize) {
  std::vector<double> expected(in.size());
  filterSerial(in, spec, expected);
  std::vector<double> out(in.size(), std::numeric_limits<double>::quiet_NaN());
  const test::OneRun run = test::runOnce(backend, in, spec, out, RunOptions{blockSize});
  ASSERT_EQ(run.status, RunStatus::Ok) << run.message;
  EXPECT_EQ(countBitMismatches(expected, out), 0u)
      << backend.name() << " n=" << in.size() << " W=" << spec.window() << " mode=" << toString(spec.mode)
      << " block=" << blockSize;
}

class GpuFilter : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = test::freshSeed();
    rng_.seed(seed_);
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

TEST_F(GpuFilter, MeanFilterOnAwkwardSizesIsBitIdentical) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  for (auto& backend : makeCudaBackends()) {
    for (std::size_t n : {std::size_t{1}, std::size_t{4}, std::size_t{31}, std::size_t{511}, std::size_t{512},
                          std::size_t{513}, std::size_t{1025}, std::size_t{1000003}}) {
      expectBitIdentical(*backend, test::randomSignal(n, rng_), makeMeanFilter(5), 512);
    }
  }
}

TEST_F(GpuFilter, EveryModeAndWindowWithRandomTapsIsBitIdentical) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  for (auto& backend : makeCudaBackends()) {
    for (BoundaryMode mode : kAllModes) {
      for (std::size_t window : {std::size_t{1}, std::size_t{3}, std::size_t{7}, std::size_t{33}, std::size_t{129}}) {
        for (std::size_t n : {std::size_t{1}, window - 1 + (window == 1), std::size_t{777}, std::size_t{4099}}) {
          expectBitIdentical(*backend, test::randomSignal(n, rng_), randomTaps(window, mode, rng_), 512);
        }
      }
    }
  }
}

TEST_F(GpuFilter, BlockSizesThatDoNotDivideTheSignal) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  for (auto& backend : makeCudaBackends()) {
    for (int block : {32, 96, 128, 256, 1024}) {
      expectBitIdentical(*backend, test::randomSignal(10007, rng_), makeMeanFilter(9, BoundaryMode::Reflect), block);
    }
  }
}

TEST_F(GpuFilter, WindowWiderThanTheBlockAndTheSignal) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  for (auto& backend : makeCudaBackends()) {
    for (BoundaryMode mode : kAllModes) {
      expectBitIdentical(*backend, test::randomSignal(300, rng_), randomTaps(1001, mode, rng_), 64);
    }
  }
}

TEST_F(GpuFilter, EmptySignalIsFine) {
  SIGLAB_SKIP_WITHOUT_GPU();
  for (auto& backend : makeCudaBackends()) {
    std::vector<double> none;
    EXPECT_EQ(test::runOnce(*backend, none, makeMeanFilter(5), none, RunOptions{}).status, RunStatus::Ok);
  }
}

TEST_F(GpuFilter, TapsBeyondConstantMemoryFallBackToDeviceMemoryAndSaySo) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  for (auto& backend : makeCudaBackends()) {
    for (BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect}) {
      const FilterSpec spec = randomTaps(4097, mode, rng_);
      expectBitIdentical(*backend, test::randomSignal(9000, rng_), spec, 256);
      const std::vector<double> in = test::randomSignal(100, rng_);
      std::vector<double> out(in.size());
      const test::OneRun run = test::runOnce(*backend, in, spec, out, RunOptions{256});
      if (backend->name() == "gpu-constant" || backend->name() == "gpu-shared") {
        EXPECT_NE(run.message.find("__constant__"), std::string::npos) << run.message;
      }
    }
  }
}

TEST_F(GpuFilter, TimingsAreMeasured) {
  SIGLAB_SKIP_WITHOUT_GPU();
  for (auto& backend : makeCudaBackends()) {
    const std::vector<double> in = test::randomSignal(1 << 20, rng_);
    std::vector<double> out(in.size());
    const test::OneRun once = test::runOnce(*backend, in, makeMeanFilter(5), out, RunOptions{512});
    ASSERT_EQ(once.status, RunStatus::Ok) << once.message;
    EXPECT_GT(once.phases.kernelMs, 0.0);  // the phases of that one execution
    EXPECT_GT(once.phases.transferMs, 0.0);
    EXPECT_GE(once.phases.totalMs, once.phases.kernelMs);
    EXPECT_TRUE(backend->usesGpu());
    BackendList one;
    one.push_back(std::move(backend));
    const Comparison c = runComparison(one, in, makeMeanFilter(5), CompareOptions{RunOptions{512}, {1, 5}});
    const FilterRun& run = c.results.back().run;
    ASSERT_EQ(run.status, RunStatus::Ok) << run.message;
    EXPECT_EQ(run.kernel.samples, 5);
    EXPECT_GT(run.kernel.medianMs, 0.0);
    EXPECT_GT(run.transfer.medianMs, 0.0);
    EXPECT_GE(run.total.medianMs, run.kernel.medianMs);
  }
}

// Runs everywhere: without a GPU every backend must say why, and never pretend to have run.
TEST(GpuBackends, AreListedAndExplainThemselvesWhenUnavailable) {
  const BackendList backends = makeCudaBackends();
  ASSERT_EQ(backends.size(), 4u);
  EXPECT_EQ(backends[0]->name(), "gpu-global");
  EXPECT_EQ(backends[1]->name(), "gpu-constant");
  EXPECT_EQ(backends[2]->name(), "gpu-shared");
  EXPECT_EQ(backends[3]->name(), "gpu-tuned");
  if (test::firstDevice().available) return;
  for (const auto& backend : backends) {
    EXPECT_FALSE(backend->whyNot(makeMeanFilter(3), SampleType::f64).empty());
    std::vector<double> in = {1, 2, 3}, out(3, -1.0);
    const test::OneRun run = test::runOnce(*backend, in, makeMeanFilter(3), out, RunOptions{});
    EXPECT_EQ(run.status, RunStatus::Unavailable);
    EXPECT_FALSE(run.message.empty());
  }
}

}  // namespace
}  // namespace siglab
