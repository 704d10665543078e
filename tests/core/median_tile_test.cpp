// The GPU median's steps (median_tile.hpp) run on the host, a thread block emulated by loops, against
// the reference: CI has no GPU, so this is where the kernels' logic is checked on every commit.
#include "shared_helpers.hpp"
#include "siglab/median_tile.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "siglab/median_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kModes;

// medianSortedTile's three phases, each over every entry or output of every tile.
template <typename T>
std::vector<T> emulateSortedTiles(const std::vector<T>& in, int window, BoundaryMode mode) {
  const int tile = medianTileSize(window), perTile = medianTileOutputs(tile, window);
  const auto n = static_cast<std::int64_t>(in.size());
  std::vector<T> out(in.size(), std::numeric_limits<T>::quiet_NaN());
  std::vector<OrderedKey<T>> keys(static_cast<std::size_t>(tile));
  std::vector<std::uint16_t> positions(static_cast<std::size_t>(tile));
  for (std::int64_t first = 0; first < n; first += perTile) {
    const int outputs = static_cast<int>(std::min<std::int64_t>(perTile, n - first));
    for (int e = 0; e < tile; ++e) medianTileEntry(in.data(), n, mode, first, outputs, window, tile, e, keys[e], positions[e]);
    for (int k = 2; k <= tile; k <<= 1) {
      for (int j = k >> 1; j > 0; j >>= 1) {
        for (int e = 0; e < tile; ++e) bitonicStep(keys.data(), positions.data(), e, j, k);
      }
    }
    for (int t = 0; t < outputs; ++t) out[first + t] = fromOrderedKey<T>(walkToMedian(keys.data(), positions.data(), tile, t, window));
  }
  return out;
}

template <int W, typename T>
std::vector<T> emulateRegisters(const std::vector<T>& in, BoundaryMode mode) {
  const auto n = static_cast<std::int64_t>(in.size());
  std::vector<T> out(in.size(), std::numeric_limits<T>::quiet_NaN());
  for (std::int64_t i = 0; i < n; ++i) {
    OrderedKey<T> v[W];
    for (int j = 0; j < W; ++j) v[j] = medianKeyAt(in.data(), i - W / 2 + j, n, mode);
    out[i] = fromOrderedKey<T>(medianOfRegisters(v));
  }
  return out;
}

template <typename T>
std::size_t mismatches(const std::vector<T>& in, const std::vector<T>& actual, std::size_t w, BoundaryMode mode) {
  std::vector<T> expected(in.size());
  medianFilterReference(std::span<const T>(in), w, mode, std::span<T>(expected));
  std::size_t bad = 0;
  for (std::size_t i = 0; i < in.size(); ++i) bad += std::memcmp(&expected[i], &actual[i], sizeof(T)) != 0;
  return bad;
}

std::vector<double> awkwardSignal(std::size_t n, std::mt19937_64& rng) {
  std::uniform_int_distribution<int> value(-30, 30);
  const double specials[] = {std::numeric_limits<double>::quiet_NaN(), -0.0, 0.0, std::numeric_limits<double>::infinity(),
                             -std::numeric_limits<double>::infinity()};
  std::vector<double> in(n);
  for (double& v : in) v = value(rng) > 27 ? specials[static_cast<std::size_t>(value(rng) + 30) % 5] : value(rng) / 8.0;
  return in;
}

TEST(MedianTile, TileSizesAreAtLeastFourWindowsAndServeOutputs) {
  EXPECT_EQ(medianTileSize(11), 256);
  EXPECT_EQ(medianTileSize(101), 256);
  EXPECT_EQ(medianTileSize(501), 1024);
  EXPECT_EQ(medianTileSize(kMedianTileMaxWindow), 4096);
  EXPECT_GE(medianTileOutputs(medianTileSize(kMedianTileMaxWindow), kMedianTileMaxWindow), 2048);
}

TEST(MedianTile, SortedTileStepsMatchTheReference) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 2u, 300u, 5001u}) {
    const std::vector<double> in = awkwardSignal(n, rng);
    const std::vector<float> in32(in.begin(), in.end());
    for (int w : {11, 63, 101, 255, 1023, kMedianTileMaxWindow}) {
      for (BoundaryMode mode : kModes) {
        if (n * static_cast<std::size_t>(w) > 2'000'000 && mode != BoundaryMode::Reflect) continue;  // keeps it fast
        EXPECT_EQ(mismatches(in, emulateSortedTiles(in, w, mode), static_cast<std::size_t>(w), mode), 0u)
            << "n " << n << " W " << w << " (seed " << seed << ")";
        EXPECT_EQ(mismatches(in32, emulateSortedTiles(in32, w, mode), static_cast<std::size_t>(w), mode), 0u)
            << "float32 n " << n << " W " << w << " (seed " << seed << ")";
      }
    }
  }
}

TEST(MedianTile, RegisterSelectionMatchesTheReference) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 4u, 1000u}) {
    const std::vector<double> in = awkwardSignal(n, rng);
    for (BoundaryMode mode : kModes) {
      EXPECT_EQ(mismatches(in, emulateRegisters<1>(in, mode), 1, mode), 0u);
      EXPECT_EQ(mismatches(in, emulateRegisters<3>(in, mode), 3, mode), 0u);
      EXPECT_EQ(mismatches(in, emulateRegisters<5>(in, mode), 5, mode), 0u);
      EXPECT_EQ(mismatches(in, emulateRegisters<7>(in, mode), 7, mode), 0u);
      EXPECT_EQ(mismatches(in, emulateRegisters<9>(in, mode), 9, mode), 0u) << "seed " << seed;
    }
  }
}

}  // namespace
}  // namespace siglab
