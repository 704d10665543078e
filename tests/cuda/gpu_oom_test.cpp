// Real out-of-memory: this test takes nearly all free device memory with cudaMalloc, then asks the
// GPU backends to filter a signal that cannot fit. Each must report it (Failed, "out of GPU
// memory") or work within what is left, the comparison must still deliver cpu-serial's bits, and
// the device must be usable once the memory is back. Built only with CUDA (it calls the runtime).
#include <cuda_runtime.h>
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

// Holds all but `leaveBytes` of the device's free memory until destroyed.
class MemoryHog {
 public:
  explicit MemoryHog(std::size_t leaveBytes) {
    std::size_t freeBytes = 0, totalBytes = 0;
    if (cudaMemGetInfo(&freeBytes, &totalBytes) != cudaSuccess || freeBytes <= leaveBytes) return;
    for (std::size_t bytes = freeBytes - leaveBytes; bytes > (64u << 20) && !pointer_; bytes -= 64u << 20) {
      if (cudaMalloc(&pointer_, bytes) != cudaSuccess) {
        pointer_ = nullptr;
        cudaGetLastError();  // clear the (non-sticky) allocation error and try a little less
      }
    }
  }
  MemoryHog(const MemoryHog&) = delete;
  MemoryHog& operator=(const MemoryHog&) = delete;
  ~MemoryHog() {
    if (pointer_) cudaFree(pointer_);
  }
  bool holding() const { return pointer_ != nullptr; }

 private:
  void* pointer_ = nullptr;
};

TEST(GpuFaults, OutOfMemoryIsReportedAndTheCpuResultIsDelivered) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<double> in = test::randomSignal(16'000'003, rng);  // 128 MB in, 128 MB out
  const FilterSpec spec = makeMeanFilter(7, BoundaryMode::Nearest);
  std::vector<double> expected(in.size());
  filterSerial(in, spec, expected);
  CompareOptions options;
  options.measure.repeats = 1;
  const BackendList backends = makeCudaBackends();
  {
    const MemoryHog hog(64u << 20);
    ASSERT_TRUE(hog.holding()) << "could not take the device's memory";
    const Comparison comparison = runComparison(backends, in, spec, options);
    for (const BackendResult& r : comparison.results) {
      if (r.run.status == RunStatus::Ok) {
        EXPECT_TRUE(r.agrees) << r.name << " ran within what was left but disagrees; seed " << seed;
      } else {
        EXPECT_EQ(r.run.status, RunStatus::Failed) << r.name;
        EXPECT_NE(r.run.message.find("out of GPU memory"), std::string::npos) << r.name << ": " << r.run.message;
      }
    }
    ASSERT_EQ(comparison.find("gpu-global")->run.status, RunStatus::Failed) << "256 MB cannot fit in 64 MB";
    ASSERT_EQ(comparison.reference.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      ASSERT_EQ(std::bit_cast<std::uint64_t>(comparison.reference[i]), std::bit_cast<std::uint64_t>(expected[i])) << i;
    }
  }
  const Comparison after = runComparison(backends, in, spec, options);  // memory back: every backend runs
  for (const BackendResult& r : after.results) {
    EXPECT_EQ(r.run.status, RunStatus::Ok) << r.name << ": " << r.run.message;
    EXPECT_TRUE(r.agrees) << r.name << "; seed " << seed;
  }
}

}  // namespace
}  // namespace siglab
