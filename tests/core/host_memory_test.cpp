// ReadOptions::hostMemory: every reader places the samples in the resource it is given, in one
// allocation of the signal's size (never grown), with the same values as in ordinary memory, and
// an apply's result comes from the same resource.
#include <gtest/gtest.h>

#include <memory_resource>
#include <random>

#include "siglab/cpu_parallel.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/io/text_format.hpp"
#include "siglab/job.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

// Ordinary memory that counts what it hands out, standing in for page-locked memory.
class CountingResource final : public std::pmr::memory_resource {
 public:
  std::size_t allocations = 0;
  std::size_t bytes = 0;
  std::size_t live = 0;

 private:
  void* do_allocate(std::size_t n, std::size_t alignment) override {
    ++allocations;
    bytes += n;
    ++live;
    return std::pmr::new_delete_resource()->allocate(n, alignment);
  }
  void do_deallocate(void* p, std::size_t n, std::size_t alignment) override {
    --live;
    std::pmr::new_delete_resource()->deallocate(p, n, alignment);
  }
  bool do_is_equal(const std::pmr::memory_resource& other) const noexcept override { return this == &other; }
};

TEST(HostMemory, EveryReaderPlacesTheSamplesInTheGivenResourceInOneAllocation) {
  test::TempDir dir;
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> values = test::randomSignal(100'003, rng);
  writeSignal(dir.file("s.npy"), values);
  writeSignal(dir.file("s.raw"), values);
  writeTextSignal(dir.file("s.txt"), values);
  WriteOptions wav;
  wav.format = FileFormat::wav;
  writeSignal(dir.file("s.wav"), values, wav);

  for (const std::string name : {"s.npy", "s.raw", "s.txt", "s.wav"}) {
    SCOPED_TRACE(name);
    ReadOptions options;
    if (name == "s.raw") options.rawType = SampleType::f64;
    const Signal ordinary = readSignal(dir.file(name), options);
    CountingResource counting;
    options.hostMemory = &counting;
    {
      Signal placed;
      placed = readSignal(dir.file(name), options);  // as the CLI does: the resource moves with the samples
      EXPECT_EQ(placed.samples.resource(), &counting);
      EXPECT_TRUE(placed.samples == ordinary.samples.toVector());
      EXPECT_EQ(counting.allocations, 1u) << "the samples were grown or copied";
      EXPECT_EQ(counting.bytes, values.size() * sizeof(double));
    }
    EXPECT_EQ(counting.live, 0u);
  }
}

TEST(HostMemory, TextWithFewerValuesThanLinesShrinksOnceAtMost) {
  test::TempDir dir;
  std::string text;
  for (int i = 0; i < 1000; ++i) text += i % 2 ? "# a comment line\n" : std::to_string(i) + "\n";
  test::writeFile(dir.file("half.txt"), text);
  CountingResource counting;
  ReadOptions options;
  options.hostMemory = &counting;
  const Signal placed = readSignal(dir.file("half.txt"), options);
  EXPECT_EQ(placed.samples.size(), 500u);
  EXPECT_EQ(placed.samples.resource(), &counting);
  EXPECT_LE(counting.allocations, 2u);  // one at the line count, one to give back the unused half
}

TEST(HostMemory, AnApplysResultComesFromTheSamplesResource) {
  BackendList engines;
  engines.push_back(std::make_unique<CpuParallelBackend>());
  std::mt19937_64 rng(test::freshSeed());
  const std::vector<double> in = test::randomSignal(4099, rng);
  CountingResource counting;
  Job job;
  job.engines = "cpu-parallel";
  job.spec = makeMeanFilter(7);
  job.read.hostMemory = &counting;
  const AppliedJob applied = applyJob(engines, in, job);
  EXPECT_EQ(applied.result.output.resource(), &counting);
  std::vector<double> expected(in.size());
  filterParallel(in, job.spec, expected);
  EXPECT_TRUE(applied.result.output == expected);
  job.read.hostMemory = nullptr;
  EXPECT_NE(applyJob(engines, in, job).result.output.resource(), &counting);
}

}  // namespace
}  // namespace siglab
