// The GPU engine base (cuda/src/gpu_engine.hpp) and what it is built from: a stream view that the
// legacy default stream cannot become, out of memory as one typed error (from CUDA and from cuFFT),
// and the base's one mapping of failures. Built only with CUDA (it includes the engines' own
// headers); the parts that need no device run everywhere.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "../../cuda/src/cuda_check.hpp"
#include "../../cuda/src/device_buffer.hpp"
#include "../../cuda/src/device_scope.hpp"
#include "../../cuda/src/fft_plan_cache.hpp"
#include "../../cuda/src/gpu_engine.hpp"
#include "../../cuda/src/stream.hpp"
#include "gpu_test_support.hpp"
#include "siglab/cuda_backends.hpp"

namespace siglab {
namespace {

// 0 and nullptr name the legacy default stream: neither may become a StreamView, nor may a view
// appear from nothing.
static_assert(!std::is_constructible_v<cuda::StreamView, int>);
static_assert(!std::is_constructible_v<cuda::StreamView, std::nullptr_t>);
static_assert(!std::is_constructible_v<cuda::StreamView, cudaStream_t>);
static_assert(!std::is_default_constructible_v<cuda::StreamView>);

TEST(GpuEngineBase, AllocationFailuresAreOneTypedErrorFromCudaAndFromCufft) {
  EXPECT_THROW(SIGLAB_CUDA_TRY(cudaErrorMemoryAllocation), cuda::OutOfDeviceMemory);
  EXPECT_THROW(SIGLAB_CUFFT_TRY(CUFFT_ALLOC_FAILED), cuda::OutOfDeviceMemory);
  try {
    SIGLAB_CUDA_TRY(cudaErrorInvalidValue);
    ADD_FAILURE() << "no error thrown";
  } catch (const cuda::OutOfDeviceMemory&) {
    ADD_FAILURE() << "an invalid value is not out of memory";
  } catch (const cuda::CudaError& e) {
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
  }
  EXPECT_THROW(SIGLAB_CUFFT_TRY(CUFFT_INVALID_SIZE), cuda::CufftError);
}

TEST(GpuEngineBase, AnEngineThatCannotRunRefusesBeforeTouchingTheDevice) {
  cuda::GpuEngine engine("no GPU here", 0);
  bool ran = false;
  EXPECT_THROW(engine.run("out of GPU memory", [&](const cuda::OnDevice&) { ran = true; }), EngineUnavailable);
  EXPECT_FALSE(ran);
  const GpuFilterResult result = cuda::filterResultOf([&] {
    return engine.run("out of GPU memory", [&](const cuda::OnDevice&) { return GpuFilterResult{}; });
  });
  EXPECT_EQ(result.status, GpuStatus::Unavailable);
  EXPECT_EQ(result.reason, "no GPU here");
}

TEST(GpuEngineBase, DeviceFailuresAreMappedOnceWithTheEnginesWords) {
  SIGLAB_SKIP_WITHOUT_GPU();
  cuda::GpuEngine engine("", test::firstDevice().index);
  const GpuFilterResult oom = cuda::filterResultOf([&] {
    return engine.run("out of GPU memory: the run needs 5 MiB", [&](const cuda::OnDevice&) -> GpuFilterResult {
      SIGLAB_CUDA_TRY(cudaErrorMemoryAllocation);
      return {};
    });
  });
  EXPECT_EQ(oom.status, GpuStatus::OutOfMemory);
  EXPECT_EQ(oom.reason.rfind("out of GPU memory: the run needs 5 MiB (cudaErrorMemoryAllocation", 0), 0u) << oom.reason;
  const GpuFilterResult failed = cuda::filterResultOf([&] {
    return engine.run("out of GPU memory", [&](const cuda::OnDevice&) -> GpuFilterResult {
      SIGLAB_CUDA_TRY(cudaErrorInvalidValue);
      return {};
    });
  });
  EXPECT_EQ(failed.status, GpuStatus::Failed);
  // The engine runs again after a failure, on a fresh stream of its device.
  int device = -1;
  engine.run("out of GPU memory", [&](const cuda::OnDevice& on) {
    on.stream.synchronize();
    device = on.device;
  });
  EXPECT_EQ(device, test::firstDevice().index);
}

// Bytes the device's pool holds from the device, in use or kept.
std::uint64_t poolReserved(int device) {
  cudaMemPool_t pool = nullptr;
  SIGLAB_CUDA_TRY(cudaDeviceGetDefaultMemPool(&pool, device));
  std::uint64_t bytes = 0;
  SIGLAB_CUDA_TRY(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &bytes));
  return bytes;
}

TEST(GpuEngineBase, DeviceBuffersComeBackFromThePoolAndReleaseGivesThemBack) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const int device = test::firstDevice().index;
  const cuda::DeviceScope scope(device);
  const cuda::Stream stream;
  constexpr std::size_t kCount = std::size_t{8} << 20;  // 64 MiB of doubles
  releaseKeptDeviceMemory();
  const std::uint64_t before = poolReserved(device);
  {
    const cuda::DeviceBuffer<double> buffer(kCount, stream.view());
    std::vector<double> values(1000, 2.5), back(1000, 0.0);
    buffer.copyFrom(values.data(), values.size());
    buffer.copyTo(back.data(), back.size());
    stream.synchronize();
    EXPECT_EQ(back, values);
  }
  const std::uint64_t kept = poolReserved(device);
  EXPECT_GE(kept, before + kCount * sizeof(double)) << "the freed block is kept";
  {
    const cuda::DeviceBuffer<double> again(kCount, stream.view());
    EXPECT_EQ(poolReserved(device), kept) << "the next buffer of its size takes the kept block, nothing new";
  }
  releaseKeptDeviceMemory();
  EXPECT_LT(poolReserved(device), before + kCount * sizeof(double)) << "release_memory gives it back";
}

}  // namespace
}  // namespace siglab
