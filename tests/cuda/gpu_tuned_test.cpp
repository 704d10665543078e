// gpu-tuned's transfer paths against cpu-serial, bit for bit: whole-signal copies, the pinned
// chunked pipeline from pageable and from pinned memory, a memory budget that forces a signal
// through in many chunks, halos wider than a chunk, and the float32 path.
#include <gtest/gtest.h>

#include <bit>
#include <type_traits>
#include <limits>
#include <random>

#include "shared_helpers.hpp"
#include "engine_test_support.hpp"
#include "gpu_test_support.hpp"
#include "siglab/compare.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kAllModes;

template <class T>
std::size_t countBitMismatches(std::span<const T> a, std::span<const T> b) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < a.size(); ++i) mismatches += std::bit_cast<Bits>(a[i]) != std::bit_cast<Bits>(b[i]);
  return mismatches;
}

// cpu-serial's loop in float32: float taps, products and sums each rounded to float.
std::vector<float> filterSerialFloat(const std::vector<float>& in, const FilterSpec& spec) {
  const auto n = static_cast<std::int64_t>(in.size());
  const auto r = static_cast<std::int64_t>(spec.radius());
  std::vector<float> out(in.size());
  for (std::int64_t i = 0; i < n; ++i) {
    float acc = 0.0f;
    for (std::size_t j = 0; j < spec.window(); ++j) {
      const std::int64_t k = boundaryIndex(i - r + static_cast<std::int64_t>(j), n, spec.mode);
      if (k == kSkipSample) continue;
      const float product = static_cast<float>(spec.taps[j]) * in[static_cast<std::size_t>(k)];
      acc = acc + product;
    }
    out[static_cast<std::size_t>(i)] = acc;
  }
  return out;
}

FilterSpec randomSpec(std::size_t window, BoundaryMode mode, std::mt19937_64& rng) {
  return FilterSpec{test::randomSignal(window, rng, 1.0), mode};
}

class GpuTuned : public ::testing::Test {
 protected:
  void SetUp() override {
    seed_ = test::freshSeed();
    rng_.seed(seed_);
  }
  // Runs `backend` on `in` (copied into `inStore`, poisoned `outStore`) and expects cpu-serial's bits.
  void expectBitIdentical(FilterBackend& backend, std::span<double> inStore, std::span<double> outStore,
                          const FilterSpec& spec, const std::string& what) {
    for (double& v : inStore) v = std::uniform_real_distribution<double>(-100, 100)(rng_);
    std::vector<double> expected(inStore.size());
    filterSerial(inStore, spec, expected);
    std::fill(outStore.begin(), outStore.end(), std::numeric_limits<double>::quiet_NaN());
    const test::OneRun run = test::runOnce(backend, std::span<const double>(inStore), spec, outStore, RunOptions{256});
    ASSERT_EQ(run.status, RunStatus::Ok) << what << ": " << run.message;
    EXPECT_EQ(countBitMismatches<double>(expected, outStore), 0u)
        << what << " n=" << inStore.size() << " W=" << spec.window() << " mode=" << toString(spec.mode) << " ("
        << run.message << ")";
  }
  std::uint64_t seed_ = 0;
  std::mt19937_64 rng_;
};

TEST_F(GpuTuned, WholeSignalCopiesWithoutOverlapAreBitIdentical) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  CudaOptions options;
  options.overlapTransfers = false;
  auto backend = makeTunedCudaBackend(options);
  for (BoundaryMode mode : kAllModes) {
    for (std::size_t n : {std::size_t{1}, std::size_t{2047}, std::size_t{2049}, std::size_t{100003}}) {
      std::vector<double> in(n), out(n);
      expectBitIdentical(*backend, in, out, randomSpec(5, mode, rng_), "no overlap");
      expectBitIdentical(*backend, in, out, randomSpec(13, mode, rng_), "no overlap");
    }
  }
}

TEST_F(GpuTuned, ASmallMemoryBudgetForcesManyChunksWithTheSameBits) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  CudaOptions options;
  options.memoryBudgetBytes = 64 << 10;  // the 800 KB signal cannot be resident: ~100 chunks
  options.streams = 4;
  auto backend = makeTunedCudaBackend(options);
  for (BoundaryMode mode : kAllModes) {
    for (std::size_t window : {std::size_t{5}, std::size_t{129}}) {
      std::vector<double> in(100003), out(in.size());
      const FilterSpec spec = randomSpec(window, mode, rng_);
      expectBitIdentical(*backend, in, out, spec, "budget 64 KiB");
      std::vector<double> dummyOut(in.size());
      const test::OneRun run = test::runOnce(*backend, std::span<const double>(in), spec, dummyOut, RunOptions{256});
      EXPECT_NE(run.message.find("memory budget"), std::string::npos) << run.message;
    }
  }
}

TEST_F(GpuTuned, HalosWiderThanAChunk) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  CudaOptions options;
  options.chunkSamples = 100;
  options.streams = 3;
  auto backend = makeTunedCudaBackend(options);
  for (BoundaryMode mode : kAllModes) {
    std::vector<double> in(1234), out(in.size());
    expectBitIdentical(*backend, in, out, randomSpec(1001, mode, rng_), "chunks of 100");
    expectBitIdentical(*backend, in, out, randomSpec(7, mode, rng_), "chunks of 100");
  }
}

TEST_F(GpuTuned, PinnedCallerMemoryIsCopiedDirectly) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  CudaOptions options;
  options.chunkSamples = 65536;
  auto backend = makeTunedCudaBackend(options);
  PinnedHostVector<double> in(777777), out(777777);
  ASSERT_TRUE(in.pinned() && out.pinned());
  for (BoundaryMode mode : kAllModes) expectBitIdentical(*backend, in.span(), out.span(), randomSpec(5, mode, rng_), "pinned");
  std::vector<double> pageableOut(in.size());  // pinned in, pageable out
  expectBitIdentical(*backend, in.span(), pageableOut, randomSpec(9, BoundaryMode::Wrap, rng_), "pinned in");
}

// Every GPU engine, gpu-tuned with and without overlapped transfers.
TEST_F(GpuTuned, EveryEngineInFloat32IsBitIdenticalToTheFloat32SerialLoop) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  BackendList backends = makeCudaBackends();
  CudaOptions noOverlap;
  noOverlap.overlapTransfers = false;
  backends.push_back(makeTunedCudaBackend(noOverlap));
  for (auto& backend : backends) {
    for (BoundaryMode mode : kAllModes) {
      for (std::size_t window : {std::size_t{1}, std::size_t{5}, std::size_t{11}, std::size_t{101}}) {
        for (std::size_t n : {std::size_t{3}, std::size_t{4097}, std::size_t{20001}}) {
          std::vector<float> in(n);
          for (float& v : in) v = std::uniform_real_distribution<float>(-100, 100)(rng_);
          const FilterSpec spec = randomSpec(window, mode, rng_);
          const std::vector<float> expected = filterSerialFloat(in, spec);
          std::vector<float> out(n, std::numeric_limits<float>::quiet_NaN());
          const test::OneRun run = test::runOnce(*backend, std::span<const float>(in), spec, std::span<float>(out), RunOptions{128});
          ASSERT_EQ(run.status, RunStatus::Ok) << backend->name() << ": " << run.message;
          EXPECT_EQ(countBitMismatches<float>(expected, out), 0u)
              << backend->name() << " float32 n=" << n << " W=" << window << " mode=" << toString(mode);
        }
      }
    }
  }
}

// Uniform windows of kPrefixSumMinWindow (65) taps and more take the O(N) prefix-sum path: not
// bit-identical, but never further from cpu-serial than the bound tolerance() states.
TEST_F(GpuTuned, PrefixSumPathStaysWithinItsStatedErrorBound) {
  SIGLAB_SKIP_WITHOUT_GPU();
  SCOPED_TRACE("SIGLAB_TEST_SEED=" + std::to_string(seed_));
  CudaOptions chunked;
  chunked.chunkSamples = 50000;
  BackendList backends;
  backends.push_back(makeTunedCudaBackend());
  backends.push_back(makeTunedCudaBackend(chunked));
  for (auto& backend : backends) {
    for (BoundaryMode mode : kAllModes) {
      for (std::size_t window : {std::size_t{65}, std::size_t{301}, std::size_t{4097}}) {
        for (std::size_t n : {std::size_t{1}, std::size_t{100}, std::size_t{5000}, std::size_t{300007}}) {
          const std::vector<double> in = test::randomSignal(n, rng_);
          const FilterSpec spec = makeMeanFilter(window, mode);
          std::vector<double> expected(n);
          filterSerial(in, spec, expected);
          std::vector<double> out(n, std::numeric_limits<double>::quiet_NaN());
          const test::OneRun run = test::runOnce(*backend, std::span<const double>(in), spec, out, RunOptions{256});
          ASSERT_EQ(run.status, RunStatus::Ok) << run.message;
          EXPECT_NE(run.message.find("prefix-sum"), std::string::npos) << run.message;
          const double bound = backend->tolerance(spec, maxAbs(in));
          EXPECT_GT(bound, 0.0);
          EXPECT_LT(bound, 1e-8 * maxAbs(in)) << "the bound should mean something";
          const Agreement agreement = compareResults(expected, out);
          EXPECT_LE(agreement.maxAbsDiff, bound) << "n=" << n << " W=" << window << " mode=" << toString(mode);
        }
      }
    }
  }
  // Below the threshold, and for non-uniform taps, the result stays bit-identical.
  EXPECT_EQ(backends[0]->tolerance(makeMeanFilter(63), 100.0), 0.0);
  EXPECT_EQ(backends[0]->tolerance(randomSpec(301, BoundaryMode::Zero, rng_), 100.0), 0.0);
}

TEST_F(GpuTuned, TooWideAWindowIsRefusedWithAReasonBeforeRunning) {
  SIGLAB_SKIP_WITHOUT_GPU();
  auto backend = makeTunedCudaBackend();
  EXPECT_NE(backend->whyNot(makeMeanFilter(8193), SampleType::f64).find("8191"), std::string::npos);
  EXPECT_EQ(backend->whyNot(makeMeanFilter(8191), SampleType::f64), "");
  std::vector<double> in(100, 1.0), out(100);
  const test::OneRun run = test::runOnce(*backend, std::span<const double>(in), makeMeanFilter(8193), out, RunOptions{256});
  EXPECT_EQ(run.status, RunStatus::Unavailable);
  EXPECT_NE(run.message.find("gpu-global"), std::string::npos) << run.message;
}

TEST_F(GpuTuned, ABudgetTooSmallForAnyChunkFailsWithAReason) {
  SIGLAB_SKIP_WITHOUT_GPU();
  CudaOptions options;
  options.memoryBudgetBytes = 64;
  auto backend = makeTunedCudaBackend(options);
  std::vector<double> in(1000, 1.0), out(1000);
  const test::OneRun run = test::runOnce(*backend, std::span<const double>(in), makeMeanFilter(5), out, RunOptions{256});
  EXPECT_EQ(run.status, RunStatus::Failed);
  EXPECT_NE(run.message.find("budget"), std::string::npos) << run.message;
}

}  // namespace
}  // namespace siglab
