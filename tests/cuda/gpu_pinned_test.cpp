// Samples read into pinnedHostMemory(): ordinary memory where nothing can be pinned, and on a GPU
// the engines' direct-copy paths give the same results as from pageable memory.
#include <gtest/gtest.h>

#include <random>

#include "gpu_test_support.hpp"
#include "siglab/compare.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_spectrum.hpp"
#include "siglab/io/signal_io.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(PinnedHostMemory, HoldsSamplesOnEveryMachineLargeAndSmall) {
  std::mt19937_64 rng(test::freshSeed());
  for (std::size_t n : {std::size_t{0}, std::size_t{3}, std::size_t{1} << 17, (std::size_t{1} << 18) + 5}) {
    const std::vector<double> values = test::randomSignal(n, rng);
    SampleVector held(values.begin(), values.end(), pinnedHostMemory());
    EXPECT_EQ(held.resource(), pinnedHostMemory());
    EXPECT_TRUE(held == values);
    SampleVector moved;
    moved = std::move(held);  // the block, and where it came from, move together
    EXPECT_EQ(moved.resource(), pinnedHostMemory());
    EXPECT_TRUE(moved == values);
  }
}

TEST(PinnedHostMemory, GpuTunedFromALoadedPinnedSignalMatchesCpuSerialBitForBit) {
  SIGLAB_SKIP_WITHOUT_GPU();
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> values = test::randomSignal(1'000'003, rng);
  writeSignal(dir.file("s.npy"), values);
  ReadOptions options;
  options.hostMemory = pinnedHostMemory();
  const Signal loaded = readSignal(dir.file("s.npy"), options);
  const FilterSpec spec = makeMeanFilter(7, BoundaryMode::Reflect);
  std::vector<double> reference(values.size());
  filterSerial(values, spec, reference);
  auto tuned = makeTunedCudaBackend();
  for (const bool pinnedOut : {true, false}) {
    SampleVector out(values.size(), pinnedOut ? pinnedHostMemory() : nullptr);
    std::fill(out.begin(), out.end(), std::nan(""));
    tuned->filter(std::span<const double>(loaded.samples), spec, std::span<double>(out), RunOptions{}, {});
    EXPECT_TRUE(compareResults(reference, out).bitIdentical()) << "pinned output " << pinnedOut;
  }
}

TEST(PinnedHostMemory, TheGpuSpectrumIsTheSameFromPinnedAndPageableInput) {
  SIGLAB_SKIP_WITHOUT_GPU();
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> pageable = test::randomSignal(300'007, rng);
  const SampleVector pinned(pageable.begin(), pageable.end(), pinnedHostMemory());
  for (std::size_t chunk : {std::size_t{0}, std::size_t{5}}) {
    WelchOptions o;
    o.segment = 1000;
    const GpuSpectrumRun a = welchGpu(pageable, o, chunk), b = welchGpu(pinned, o, chunk);
    ASSERT_TRUE(a.ok && b.ok) << a.message << b.message;
    EXPECT_EQ(a.spectrum.power, b.spectrum.power) << "chunk " << chunk;  // the same operations in the same order
  }
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

// pinnedResultMemory(): a result's block works on every machine; on a GPU a dropped one is pinned
// in place and serves the next result of its size, and gpu-tuned writes it directly with the
// same bits as into pageable memory.
TEST(PinnedResultMemory, ADroppedResultIsPinnedForTheNextOfItsSizeWhereAGpuIs) {
  std::pmr::memory_resource* memory = pinnedResultMemory();
  const std::size_t n = (std::size_t{1} << 19) + 3, bytes = n * sizeof(double);
  auto* first = static_cast<double*>(memory->allocate(bytes, 64));
  std::fill(first, first + n, 1.5);  // every byte usable
  memory->deallocate(first, bytes, 64);
  auto* second = static_cast<double*>(memory->allocate(bytes, 64));
  if (!test::firstDevice().available) memory->deallocate(second, bytes, 64);  // nothing pinned: passed through
  SIGLAB_SKIP_WITHOUT_GPU();
  EXPECT_EQ(second, first);
  EXPECT_FALSE(registerPinnedHost(second, bytes));  // pinned already: CUDA refuses a second time

  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> values = test::randomSignal(n, rng);
  const FilterSpec spec = makeMeanFilter(9, BoundaryMode::Mirror);
  std::vector<double> pageable(n);
  auto tuned = makeTunedCudaBackend();
  tuned->filter(std::span<const double>(values), spec, std::span<double>(pageable), RunOptions{}, {});
  std::fill(second, second + n, std::nan(""));
  tuned->filter(std::span<const double>(values), spec, std::span<double>(second, n), RunOptions{}, {});
  EXPECT_TRUE(compareResults(pageable, std::span<const double>(second, n)).bitIdentical());
  memory->deallocate(second, bytes, 64);
}

}  // namespace
}  // namespace siglab
