#include "shared_helpers.hpp"
#include "siglab/split_filter.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/device_list.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kModes;

using test::randomTaps;

// `parts` cpu-serial engines (or a mix with cpu-parallel) behind one split engine.
std::unique_ptr<SplitFilterBackend> splitSerial(std::size_t parts, std::size_t align, bool mixParallel = false) {
  std::vector<std::unique_ptr<PartEngine>> engines;
  for (std::size_t p = 0; p < parts; ++p) {
    std::unique_ptr<FilterBackend> engine;
    if (mixParallel && p % 2 == 1) {
      engine = std::make_unique<CpuParallelBackend>();
    } else {
      engine = std::make_unique<CpuSerialBackend>();
    }
    engines.push_back(std::make_unique<PartEngine>(std::move(engine)));
  }
  return std::make_unique<SplitFilterBackend>(std::move(engines), "test parts", align);
}

template <class T>
std::size_t mismatches(const std::vector<T>& a, const std::vector<T>& b) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.size(); ++i) count += std::memcmp(&a[i], &b[i], sizeof(T)) != 0;
  return count;
}

TEST(SplitIntoParts, CoversTheSignalInAlignedNearlyEqualParts) {
  for (std::size_t n : {0, 1, 2, 7, 4095, 4096, 4097, 10000, 65536 * 3 + 5}) {
    for (std::size_t parts : {1, 2, 3, 8}) {
      for (std::size_t align : {1, 16, 4096}) {
        const std::vector<SignalPart> split = splitIntoParts(n, parts, align);
        const std::size_t pieces = (n + align - 1) / align;
        ASSERT_EQ(split.size(), std::min(parts, pieces)) << n << " " << parts << " " << align;
        std::size_t next = 0, fewestPieces = pieces, mostPieces = 0;
        for (const SignalPart& part : split) {
          EXPECT_EQ(part.begin, next);
          EXPECT_GT(part.end, part.begin);
          EXPECT_EQ(part.begin % align, 0u);
          next = part.end;
          const std::size_t partPieces = (part.size() + align - 1) / align;
          fewestPieces = std::min(fewestPieces, partPieces);
          mostPieces = std::max(mostPieces, partPieces);
        }
        EXPECT_EQ(next, n);
        if (!split.empty()) {
          EXPECT_LE(mostPieces - fewestPieces, 1u) << n << " " << parts << " " << align;
        }
      }
    }
  }
  EXPECT_EQ(splitIntoParts(10, 2), (std::vector<SignalPart>{{0, 5}, {5, 10}}));
  EXPECT_THROW(splitIntoParts(10, 0), std::invalid_argument);
  EXPECT_THROW(splitIntoParts(10, 2, 0), std::invalid_argument);
}

TEST(GatherWithHalo, TakesTheBoundaryRulesValuesOutsideTheSignal) {
  std::mt19937_64 rng(test::freshSeed());
  for (BoundaryMode mode : kModes) {
    for (std::size_t n : {1, 2, 5, 100}) {
      const std::vector<double> in = test::randomSignal(n, rng);
      for (std::size_t radius : {0, 1, 3, 250}) {  // 250: a halo longer than the signal
        const SignalPart part{n / 3, n};
        std::vector<double> padded(part.size() + 2 * radius, std::numeric_limits<double>::quiet_NaN());
        gatherWithHalo(std::span<const double>(in), part, radius, mode, std::span<double>(padded));
        for (std::size_t i = 0; i < padded.size(); ++i) {
          const std::int64_t position = static_cast<std::int64_t>(part.begin + i) - static_cast<std::int64_t>(radius);
          const std::int64_t k = boundaryIndex(position, static_cast<std::int64_t>(n), mode);
          const double expected = k == kSkipSample ? 0.0 : in[static_cast<std::size_t>(k)];
          ASSERT_EQ(std::memcmp(&padded[i], &expected, sizeof(double)), 0) << n << " " << radius << " " << i;
        }
      }
    }
  }
  std::vector<double> small(3);
  const std::vector<double> in(10);
  EXPECT_THROW(gatherWithHalo(std::span<const double>(in), SignalPart{0, 5}, 1, BoundaryMode::Zero,
                              std::span<double>(small)),
               std::invalid_argument);
}

// The forced split of every GPU engine uses this same engine with GPU parts: here CPU parts
// check the splitting itself, bit for bit, for every mode and awkward sizes.
template <class T>
void expectSplitHasTheBitsOfOneEngine(std::size_t parts, std::size_t align, bool mix) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed) + " (replay with SIGLAB_TEST_SEED)");
  std::mt19937_64 rng(seed);
  auto split = splitSerial(parts, align, mix);
  CpuSerialBackend serial;
  for (BoundaryMode mode : kModes) {
    for (std::size_t w : {1, 3, 9, 31}) {
      const FilterSpec spec = randomTaps(w, mode, rng);
      for (std::size_t n : {0, 1, 2, 5, 17, 4095, 4097, 3 * 4096 + 11, 20011}) {
        const std::vector<double> wide = test::randomSignal(n, rng);
        const std::vector<T> in(wide.begin(), wide.end());
        std::vector<T> expected(n), actual(n, std::numeric_limits<T>::quiet_NaN());
        serial.filter(std::span<const T>(in), spec, std::span<T>(expected), RunOptions{});
        const FilterPass pass = split->filter(std::span<const T>(in), spec, std::span<T>(actual), RunOptions{});
        ASSERT_EQ(mismatches(expected, actual), 0u) << "parts " << parts << ", W " << w << ", n " << n;
        const std::size_t used = splitIntoParts(n, parts, align).size();
        EXPECT_GE(pass.splits.at.size() + 1, used);  // every cut between parts is listed
      }
    }
  }
}

TEST(SplitFilterBackend, TwoPartsGiveTheBitsOfOneEngine) { expectSplitHasTheBitsOfOneEngine<double>(2, 1, false); }
TEST(SplitFilterBackend, ThreeAlignedPartsGiveTheBitsOfOneEngine) {
  expectSplitHasTheBitsOfOneEngine<double>(3, 4096, false);
}
TEST(SplitFilterBackend, SevenMixedPartsGiveTheBitsOfOneEngine) { expectSplitHasTheBitsOfOneEngine<double>(7, 16, true); }
TEST(SplitFilterBackend, Float32PartsGiveTheBitsOfOneEngine) { expectSplitHasTheBitsOfOneEngine<float>(2, 1, true); }

TEST(SplitFilterBackend, NamesItselfAfterItsPartsAndSaysWhereItRan) {
  auto split = splitSerial(2, 1);
  EXPECT_EQ(split->name(), "cpu-serial");
  EXPECT_NE(split->description().find("split over test parts"), std::string_view::npos);
  std::vector<double> in(100, 1.0), out(100);
  const FilterPass pass = split->filter(std::span<const double>(in), makeMeanFilter(5), std::span<double>(out), {});
  EXPECT_NE(pass.note.find("2 part(s) on test parts"), std::string::npos) << pass.note;
  EXPECT_EQ(pass.splits.at, (std::vector<std::size_t>{50}));
  EXPECT_THROW(split->filter(std::span<const double>(in), makeMeanFilter(5), std::span<double>(out.data(), 99), {}),
               std::invalid_argument);
}

// A part engine that fails, to check that the split engine reports a part's error.
class FailingPart final : public PartEngine {
 public:
  FailingPart() : PartEngine(std::make_unique<CpuSerialBackend>()) {}
  FilterPass filterPart(std::span<const double>, const FilterSpec&, std::span<double>, SignalPart, const RunOptions&,
                        const Progress&) override {
    throw std::runtime_error("device 1 fell off the bus");
  }
};

TEST(SplitFilterBackend, AFailingPartsErrorIsThrownAndCancellingStopsEveryPart) {
  std::vector<std::unique_ptr<PartEngine>> engines;
  engines.push_back(std::make_unique<PartEngine>(std::make_unique<CpuSerialBackend>()));
  engines.push_back(std::make_unique<FailingPart>());
  SplitFilterBackend split(std::move(engines), "test parts", 1);
  std::vector<double> in(1000, 1.0), out(1000);
  EXPECT_THROW(
      {
        try {
          split.filter(std::span<const double>(in), makeMeanFilter(5), std::span<double>(out), {});
        } catch (const std::runtime_error& e) {
          EXPECT_STREQ(e.what(), "device 1 fell off the bus");
          throw;
        }
      },
      std::runtime_error);

  std::atomic<bool> cancel = true;
  Progress progress;
  progress.cancelFlag = &cancel;
  auto two = splitSerial(2, 1);
  EXPECT_THROW(two->filter(std::span<const double>(in), makeMeanFilter(5), std::span<double>(out), {}, progress),
               Cancelled);
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

TEST(DeviceList, ReadsAllAndNumberedListsAndRefusesTheRest) {
  EXPECT_EQ(parseDeviceList("all", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(parseDeviceList("all", 0), (std::vector<int>{}));  // no GPU: the engines say why
  EXPECT_EQ(parseDeviceList("1", 2), (std::vector<int>{1}));
  EXPECT_EQ(parseDeviceList("0,1", 2), (std::vector<int>{0, 1}));
  EXPECT_EQ(parseDeviceList("0,0", 1), (std::vector<int>{0, 0}));
  EXPECT_EQ(parseDeviceList("0,0", 0), (std::vector<int>{0, 0}));  // no GPU: device 0's engines say why
  EXPECT_THROW(parseDeviceList("3", 0), std::invalid_argument);    // a GPU that cannot exist
  EXPECT_EQ(formatDeviceList({0, 1}), "0,1");
  EXPECT_EQ(formatDevicePlacement({0, 0}), "devices 0,0");
  EXPECT_EQ(formatDevicePlacement({1}), "device 1");
  for (const char* bad : {"", ",", "0,", "a", "-1", "0;1", "1.5", " 0", "99999999999"}) {
    EXPECT_THROW(parseDeviceList(bad, 2), std::invalid_argument) << bad;
  }
  try {
    parseDeviceList("0,2", 2);
    ADD_FAILURE() << "GPU 2 of 2 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "names GPU 2, which does not exist; this machine has GPUs 0 to 1");
  }
  std::string many = "0";
  for (int i = 1; i < 65; ++i) many += ",0";
  EXPECT_THROW(parseDeviceList(many, 1), std::invalid_argument);
  many.resize(many.size() - 2);
  EXPECT_EQ(parseDeviceList(many, 1).size(), kMaxDeviceListEntries);
}

}  // namespace
}  // namespace siglab
