// GPU faults as the user meets them: no usable GPU, or a run that cannot fit its memory budget.
// Each is reported on the backend's line (Unavailable or Failed, with the reason) while the
// comparison still delivers cpu-serial's result. Real out-of-memory is in gpu_oom_test.cpp.
#include <gtest/gtest.h>

#include <bit>
#include <random>

#include "gpu_test_support.hpp"
#include "siglab/comparison.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// cpu-serial's bits, computed directly, as the oracle for what the comparison delivered.
void expectReferenceIsCpuSerial(const Comparison& comparison, std::span<const double> in, const FilterSpec& spec) {
  std::vector<double> expected(in.size());
  filterSerial(in, spec, expected);
  ASSERT_EQ(comparison.reference.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    ASSERT_EQ(std::bit_cast<std::uint64_t>(comparison.reference[i]), std::bit_cast<std::uint64_t>(expected[i])) << i;
  }
}

TEST(GpuFaults, WithoutAGpuEveryGpuBackendSaysWhyAndTheCpuResultIsDelivered) {
  if (test::firstDevice().available) GTEST_SKIP() << "a GPU is present: the unavailable path is tested where there is none";
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> in = test::randomSignal(1237, rng);
  const FilterSpec spec = makeMeanFilter(31, BoundaryMode::Reflect);
  const BackendList backends = makeCudaBackends();
  ASSERT_FALSE(backends.empty());
  CompareOptions options;
  options.measure.repeats = 1;
  const Comparison comparison = runComparison(backends, in, spec, options);
  ASSERT_EQ(comparison.results.size(), backends.size() + 1) << "cpu-serial first, then every GPU backend";
  for (std::size_t i = 1; i < comparison.results.size(); ++i) {
    const BackendResult& r = comparison.results[i];
    EXPECT_EQ(r.run.status, RunStatus::Unavailable) << r.name;
    EXPECT_FALSE(r.run.message.empty()) << r.name << " gives no reason";
  }
  EXPECT_TRUE(comparison.allAgree());
  expectReferenceIsCpuSerial(comparison, in, spec);
}

TEST(GpuFaults, ABudgetTooSmallForOneChunkFailsWithItsReasonAndTheCpuResultIsDelivered) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> in = test::randomSignal(100'003, rng);
  const FilterSpec spec = makeMeanFilter(1001, BoundaryMode::Mirror);
  CudaOptions tiny;
  tiny.memoryBudgetBytes = 4096;  // 4 streams of 128 samples: less than one window's halo
  BackendList backends;
  backends.push_back(makeTunedCudaBackend(tiny));
  CompareOptions options;
  options.measure.repeats = 1;
  const Comparison comparison = runComparison(backends, in, spec, options);
  const BackendResult* tuned = comparison.find("gpu-tuned");
  ASSERT_NE(tuned, nullptr);
  EXPECT_EQ(tuned->run.status, RunStatus::Failed);
  EXPECT_NE(tuned->run.message.find("memory budget"), std::string::npos) << tuned->run.message;
  EXPECT_TRUE(comparison.allAgree()) << "a failed backend is reported, not counted as a disagreement";
  expectReferenceIsCpuSerial(comparison, in, spec);

  // The device is still usable afterwards: the same backend with room to work gives cpu-serial's bits.
  backends.clear();
  backends.push_back(makeTunedCudaBackend());
  const Comparison retry = runComparison(backends, in, spec, options);
  ASSERT_EQ(retry.find("gpu-tuned")->run.status, RunStatus::Ok) << retry.find("gpu-tuned")->run.message;
  EXPECT_TRUE(retry.find("gpu-tuned")->agrees);
}

}  // namespace
}  // namespace siglab
