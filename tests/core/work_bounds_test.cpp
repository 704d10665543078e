// Work bounded by the signal, not the window; memory refused up front with the amounts.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "siglab/compare.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/taps.hpp"
#include "siglab/work_bounds.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(WorkBounds, CroppedZeroModeWindowIsBitIdentical) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 2u, 5u, 17u, 300u}) {
    const std::vector<double> in = test::randomSignal(n, rng);
    for (std::size_t w : {2 * n + 1, 2 * n + 7, 4 * n + 3, 10 * n + 1}) {
      std::vector<double> taps = test::randomSignal(w, rng, 1.0);
      const FilterSpec full{taps, BoundaryMode::Zero};
      const FilterSpec cropped = cropToSignal(full, n);
      EXPECT_EQ(cropped.window(), 2 * n - 1);
      std::vector<double> expected(n, std::nan("")), serial(n, std::nan("")), parallel(n, std::nan(""));
      filterSerial(in, full, expected);
      filterSerial(in, cropped, serial);
      filterParallel(in, cropped, parallel);
      EXPECT_TRUE(compareResults(expected, serial).bitIdentical()) << "n " << n << " w " << w;
      EXPECT_TRUE(compareResults(expected, parallel).bitIdentical()) << "n " << n << " w " << w;
      // The mean filter built without its W taps gives the same as the full one.
      std::vector<double> mean(n), meanFull(n);
      filterSerial(in, meanFilterForSignal(w, BoundaryMode::Zero, n), mean);
      filterSerial(in, makeMeanFilter(w), meanFull);
      EXPECT_TRUE(compareResults(meanFull, mean).bitIdentical()) << "n " << n << " w " << w;
    }
  }
}

TEST(WorkBounds, HugeZeroModeWindowFinishesInBoundedTime) {
  const std::vector<double> in(1000, 1.0);
  const auto start = std::chrono::steady_clock::now();
  const FilterSpec spec = meanFilterForSignal(99999999999, BoundaryMode::Zero, in.size());
  std::vector<double> out(in.size());
  filterSerial(in, spec, out);
  EXPECT_EQ(spec.window(), 1999u);
  double expected = 0.0;  // output 500's window holds all 1000 samples: the serial sum of 1/W, 1000 times
  for (int i = 0; i < 1000; ++i) expected += 1.0 / 99999999999.0;
  EXPECT_EQ(out[500], expected);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(WorkBounds, OtherModesRefuseWindowsFarLongerThanTheSignal) {
  EXPECT_EQ(maxWindowFor(BoundaryMode::Zero, 10), kMaxWindow);
  EXPECT_EQ(maxWindowFor(BoundaryMode::Reflect, 1000), 67107u);   // 2^26 / 1000, odd
  EXPECT_EQ(maxWindowFor(BoundaryMode::Wrap, 100000000), 199999999u);  // 2N - 1
  try {
    checkWindowFits(1000000001, BoundaryMode::Reflect, 1000, "--window");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "--window 1000000001 is too long for 1000 samples in reflect mode: at most 67107 taps (2N - 1, or "
              "up to 67108864 multiply-adds in all); zero mode takes any window");
  }
  EXPECT_NO_THROW(checkWindowFits(67107, BoundaryMode::Mirror, 1000, "--window"));
}

TEST(WorkBounds, MemoryIsRefusedUpFrontWithTheAmounts) {
  try {
    requireMemory(std::uint64_t{1} << 62, 8, "2^62 doubles");
    FAIL() << "accepted";
  } catch (const NotEnoughMemory& e) {
    const std::string message = e.what();
    EXPECT_TRUE(message.starts_with("not enough memory for 2^62 doubles: needs 34359738368.0 GiB, "))
        << message;
    EXPECT_TRUE(message.ends_with(" GiB available")) << message;
  }
  EXPECT_NO_THROW(requireMemory(1 << 17, 8, "a megabyte"));
  EXPECT_EQ(formatBytes(512), "512 bytes");
  EXPECT_EQ(formatBytes(3u << 20), "3.0 MiB");
}

}  // namespace
}  // namespace siglab
