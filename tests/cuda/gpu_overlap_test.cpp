// The engine base's overlapped paths (issue 30 item 2): a signal already in device memory goes
// through gpu-tuned (in place, and through the chunk pipeline to a host result) and gpu-median (the
// pipeline) with the same bits as from host memory, the halos read back from the device; gpu-median
// runs its chunks through the pipeline from pageable, pinned and device memory, many chunks and
// every slot reused, bit for bit the reference; the chunks' layout (runs without a GPU). Built only
// with CUDA (device buffers).
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "../../cuda/src/chunk_pipeline.cuh"
#include "../../cuda/src/device_buffer.hpp"
#include "../../cuda/src/device_scope.hpp"
#include "../../cuda/src/stream.hpp"
#include "engine_test_support.hpp"
#include "gpu_test_support.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_filters.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/median_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

template <class T>
std::size_t bitMismatches(std::span<const T> a, std::span<const T> b) {
  using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
  std::size_t bad = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) bad += std::bit_cast<Bits>(a[i]) != std::bit_cast<Bits>(b[i]);
  return bad;
}

// A signal and a result buffer on device 0, and the way back to the host.
struct OnDevice {
  explicit OnDevice(const std::vector<double>& host) : in(host.size(), stream.view()), out(host.size(), stream.view()) {
    in.copyFrom(host.data(), host.size());
    stream.synchronize();
  }
  std::vector<double> result() {
    std::vector<double> back(out.size());
    out.copyTo(back.data(), back.size());
    stream.synchronize();
    return back;
  }
  cuda::Stream stream;  // first: the buffers are made for it
  cuda::DeviceBuffer<double> in, out;
};

// The chunks cover the part exactly, in order, none larger than a chunk; a part of at least 8 chunks
// starts and ends with the ramp (an eighth, a quarter, a half), and a chunk the ramp cannot divide
// into whole 4096s gets none.
TEST(GpuOverlap, ChunksCoverThePartAndRampAtBothEnds) {
  struct Case {
    std::size_t chunk, first, last;
    bool ramped;
  };
  for (const Case& c : {Case{1 << 20, 0, 10'000'000, true}, Case{622592, 0, 10'000'000, true},
                        Case{1 << 20, 0, 8 << 20, true}, Case{65536, 300'001, 800'003, false},
                        Case{65536, 0, 100'000, false}, Case{1000, 5, 10'007, false}, Case{1 << 20, 7, 7, false}}) {
    const std::vector<std::size_t> bounds = cuda::ChunkPipeline<double>::chunkBounds(c.chunk, c.first, c.last);
    SCOPED_TRACE("chunk " + std::to_string(c.chunk) + " [" + std::to_string(c.first) + ", " + std::to_string(c.last) + ")");
    ASSERT_GE(bounds.size(), 2u);
    EXPECT_EQ(bounds.front(), c.first);
    EXPECT_EQ(bounds.back(), c.last);
    for (std::size_t i = 1; i < bounds.size(); ++i) {
      EXPECT_LE(bounds[i] - bounds[i - 1], c.chunk);
      if (c.last > c.first) {
        EXPECT_GT(bounds[i], bounds[i - 1]);
      }
    }
    if (c.ramped) {
      const std::size_t k = bounds.size() - 1;
      EXPECT_EQ(bounds[1] - bounds[0], c.chunk / 8);
      EXPECT_EQ(bounds[3] - bounds[2], c.chunk / 2);
      EXPECT_EQ(bounds[k] - bounds[k - 1], c.chunk / 8);
      EXPECT_EQ(bounds[k - 2] - bounds[k - 3], c.chunk / 2);
    } else if (c.last > c.first) {
      EXPECT_EQ(bounds[1] - bounds[0], std::min(c.chunk, c.last - c.first));
    }
  }
}

TEST(GpuOverlap, TunedFiltersASignalAlreadyOnTheDeviceWithTheHostsBits) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const cuda::DeviceScope scope(0);
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> host = test::randomSignal(300'007, rng);
  // Random taps (the direct kernel) and a wide uniform window (the prefix-sum path's finite check).
  for (const FilterSpec& spec : {FilterSpec{test::randomSignal(7, rng, 1.0), BoundaryMode::Reflect},
                                 FilterSpec{test::randomSignal(31, rng, 1.0), BoundaryMode::Wrap},
                                 makeMeanFilter(101, BoundaryMode::Mirror)}) {
    std::vector<double> expected(host.size());
    const auto hostEngine = makeTunedCudaBackend();
    ASSERT_EQ(test::runOnce(*hostEngine, host, spec, expected).status, RunStatus::Ok);
    for (bool overlap : {true, false}) {
      CudaOptions options;
      options.overlapTransfers = overlap;
      options.chunkSamples = 65536;  // several chunks: halos read back from the device for each
      const auto engine = makeTunedCudaBackend(options);
      OnDevice signal(host);
      const std::span<const double> in(signal.in.data(), host.size());
      const test::OneRun resident = test::runOnce<double>(*engine, in, spec, std::span<double>(signal.out.data(), host.size()));
      ASSERT_EQ(resident.status, RunStatus::Ok) << resident.message;
      EXPECT_EQ(bitMismatches<double>(signal.result(), expected), 0u) << "device to device, W " << spec.window();
      std::vector<double> toHost(host.size(), std::numeric_limits<double>::quiet_NaN());
      const test::OneRun piped = test::runOnce<double>(*engine, in, spec, std::span<double>(toHost));
      ASSERT_EQ(piped.status, RunStatus::Ok) << piped.message;
      EXPECT_EQ(bitMismatches<double>(toHost, expected), 0u) << "device to host, W " << spec.window() << " overlap " << overlap;
    }
  }
}

TEST(GpuOverlap, MedianChunksThroughThePipelineFromEveryKindOfMemory) {
  SIGLAB_SKIP_WITHOUT_GPU();
  const cuda::DeviceScope scope(0);
  std::mt19937_64 rng(test::freshSeed());
  // Past 8 slots of the smallest chunk (64 Ki samples): every slot is reused, the last chunk partial.
  std::vector<double> host = test::randomSignal(1'100'003, rng);
  for (std::size_t i = 0; i < host.size(); i += 997) host[i] = std::round(host[i]);  // ties
  for (BoundaryMode mode : {BoundaryMode::Reflect, BoundaryMode::Zero, BoundaryMode::Wrap}) {
    for (std::size_t window : {std::size_t{5}, std::size_t{101}}) {
      std::vector<double> expected(host.size());
      medianFilterParallel(std::span<const double>(host), window, mode, std::span<double>(expected));
      std::vector<double> pageable(host.size(), std::numeric_limits<double>::quiet_NaN());
      GpuFilterResult run = medianFilterCuda(std::span<const double>(host), window, mode, std::span<double>(pageable));
      ASSERT_EQ(run.status, GpuStatus::Ok) << run.reason;
      EXPECT_EQ(bitMismatches<double>(pageable, expected), 0u) << "pageable, W " << window;

      PinnedHostVector<double> pinnedIn(host.size()), pinnedOut(host.size());
      std::copy(host.begin(), host.end(), pinnedIn.data());
      run = medianFilterCuda(std::span<const double>(pinnedIn.data(), host.size()), window, mode, pinnedOut.span());
      ASSERT_EQ(run.status, GpuStatus::Ok) << run.reason;
      EXPECT_EQ(bitMismatches<double>(std::span<const double>(pinnedOut.data(), host.size()), expected), 0u)
          << "pinned, W " << window;

      OnDevice signal(host);
      run = medianFilterCuda(std::span<const double>(signal.in.data(), host.size()), window, mode,
                             std::span<double>(signal.out.data(), host.size()));
      ASSERT_EQ(run.status, GpuStatus::Ok) << run.reason;
      EXPECT_EQ(bitMismatches<double>(signal.result(), expected), 0u) << "device, W " << window;

      // One device's part of a split, straight from device memory: the halos still from the whole signal.
      std::vector<double> part(host.size(), 0.0);
      const SignalPart middle{300'001, 800'003};
      run = medianFilterCudaPart(std::span<const double>(signal.in.data(), host.size()), middle, window, mode,
                                 std::span<double>(part), 0);
      ASSERT_EQ(run.status, GpuStatus::Ok) << run.reason;
      EXPECT_EQ(bitMismatches<double>(std::span<const double>(part).subspan(middle.begin, middle.size()),
                                      std::span<const double>(expected).subspan(middle.begin, middle.size())),
                0u)
          << "part from device memory, W " << window;
    }
  }
}

// A pass whose result needs no staging (pinned or device memory, or Welch's sums) is finished on
// the calling thread as its slots come round: no second host thread is started, and no hand-over
// between threads holds back the next chunk's copy. Its progress is therefore heard there too.
TEST(GpuOverlap, APassThatStagesNothingFinishesItsChunksOnTheCallingThread) {
  SIGLAB_SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> host = test::randomSignal(1'100'003, rng);  // past 8 slots of 64 Ki samples
  PinnedHostVector<double> pinnedIn(host.size()), pinnedOut(host.size());
  std::copy(host.begin(), host.end(), pinnedIn.data());
  std::mutex mutex;
  std::vector<std::thread::id> reporters;
  Progress progress;
  progress.onProgress = [&](double) {
    const std::lock_guard lock(mutex);
    reporters.push_back(std::this_thread::get_id());
  };
  const GpuFilterResult median = medianFilterCuda(std::span<const double>(pinnedIn.data(), host.size()), 101,
                                                  BoundaryMode::Reflect, pinnedOut.span(), 0, progress);
  ASSERT_EQ(median.status, GpuStatus::Ok) << median.reason;
  WelchOptions options;
  options.segment = 512;
  const GpuSpectrumRun welch = welchGpu(std::span<const double>(pinnedIn.data(), host.size()), options, 64, {0}, progress);
  ASSERT_TRUE(welch.ok) << welch.message;
  ASSERT_GT(reporters.size(), 16u);
  for (const std::thread::id& reporter : reporters) EXPECT_EQ(reporter, std::this_thread::get_id());
  std::vector<double> expected(host.size());
  medianFilterParallel(std::span<const double>(host), 101, BoundaryMode::Reflect, std::span<double>(expected));
  EXPECT_EQ(bitMismatches<double>(std::span<const double>(pinnedOut.data(), host.size()), expected), 0u);
}

}  // namespace
}  // namespace siglab
