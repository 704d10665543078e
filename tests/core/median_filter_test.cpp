#include "shared_helpers.hpp"
#include "siglab/median_filter.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "siglab/filter_spec.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::kModes;

std::string scipyMode(BoundaryMode mode) { return mode == BoundaryMode::Zero ? "constant" : std::string(toString(mode)); }

template <typename T>
std::vector<T> reference(const std::vector<T>& in, std::size_t w, BoundaryMode mode) {
  std::vector<T> out(in.size(), std::numeric_limits<T>::quiet_NaN());
  medianFilterReference(std::span<const T>(in), w, mode, std::span<T>(out));
  return out;
}

template <typename T>
bool sameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

TEST(MedianFilter, SmallCasesWorkedByHand) {
  const std::vector<double> x = {3, 1, 4, 1, 5};
  EXPECT_EQ(reference(x, 3, BoundaryMode::Reflect), (std::vector<double>{3, 3, 1, 4, 5}));
  EXPECT_EQ(reference(x, 3, BoundaryMode::Zero), (std::vector<double>{1, 3, 1, 4, 1}));
  EXPECT_EQ(reference(x, 3, BoundaryMode::Wrap), (std::vector<double>{3, 3, 1, 4, 3}));
  EXPECT_EQ(reference(x, 1, BoundaryMode::Zero), x);
}

TEST(MedianFilter, MedianOfAPermutationIsItsMiddleValue) {
  // A window covering a whole shuffled 0..W-1 has median W/2, whatever the order and the mode.
  std::mt19937_64 rng(test::freshSeed());
  for (std::size_t w : {1u, 3u, 9u, 101u}) {
    std::vector<double> x(w);
    for (std::size_t i = 0; i < w; ++i) x[i] = static_cast<double>(i);
    std::shuffle(x.begin(), x.end(), rng);
    for (BoundaryMode mode : kModes) {
      EXPECT_EQ(reference(x, w, mode)[w / 2], static_cast<double>(w / 2)) << "W " << w;
      std::vector<double> fast(w, std::nan(""));
      medianFilterParallel(std::span<const double>(x), w, mode, std::span<double>(fast));
      EXPECT_EQ(fast[w / 2], static_cast<double>(w / 2)) << "W " << w;
    }
  }
}

TEST(MedianFilter, NaNOrdersAboveInfinityAndNegativeZeroBelowZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> out = reference(std::vector<double>{1, nan, 3, nan, nan}, 3, BoundaryMode::Nearest);
  EXPECT_EQ(out[0], 1.0);  // 1 1 NaN
  EXPECT_EQ(out[1], 3.0);  // 1 NaN 3
  EXPECT_TRUE(std::isnan(out[2]));  // NaN 3 NaN: two of three are NaN
  EXPECT_TRUE(std::isnan(out[4]));
  const std::vector<double> zeros = reference(std::vector<double>{-0.0, 0.0, -0.0}, 3, BoundaryMode::Wrap);
  for (double z : zeros) EXPECT_TRUE(std::signbit(z));
}

TEST(MedianFilter, RejectsEvenAndEmptyWindowsNamingTheRange) {
  std::vector<double> x(10), y(10);
  for (std::size_t w : {0u, 2u, 100u}) {
    try {
      medianFilterParallel(std::span<const double>(x), w, BoundaryMode::Zero, std::span<double>(y));
      ADD_FAILURE() << "window " << w << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("median window must be a positive odd number"), std::string::npos);
    }
  }
  EXPECT_THROW(medianFilterReference(std::span<const double>(x), 3, BoundaryMode::Zero, std::span<double>(y).first(9)),
               std::invalid_argument);
}

// scipy 1.10's ndimage reads outside its line buffer in reflect mode when n is even and W/2 >= 4n
// (garbage or denormals come back); there the oracle is its definition: numpy.pad 'symmetric'.
constexpr const char* kMedianOracle = R"(
def median(s, w, m):
    if m == 'reflect' and len(s) % 2 == 0 and w // 2 >= 4 * len(s):
        p = np.pad(s, w // 2, mode='symmetric')
        return np.array([np.sort(p[i:i + w])[w // 2] for i in range(len(s))], dtype=s.dtype)
    return ndimage.median_filter(s, w, mode=m)
)";

template <typename T>
std::size_t countMismatches(const std::vector<std::vector<double>>& signals, const std::vector<double>& expected,
                            std::size_t& at, std::uint64_t seed) {
  std::size_t mismatches = 0;
  for (const std::vector<double>& s : signals) {
    const std::vector<T> in(s.begin(), s.end());
    for (std::size_t w : {1u, 3u, 5u, 11u, 101u}) {
      for (BoundaryMode mode : kModes) {
        std::vector<T> ref = reference(in, w, mode), fast(in.size(), std::numeric_limits<T>::quiet_NaN());
        medianFilterParallel(std::span<const T>(in), w, mode, std::span<T>(fast));
        for (std::size_t i = 0; i < in.size() && at + i < expected.size(); ++i) {
          const bool ok = ref[i] == static_cast<T>(expected[at + i]) && sameBits(ref[i], fast[i]);
          if (!ok && mismatches++ == 0) {
            ADD_FAILURE() << sizeof(T) * 8 << "-bit n " << in.size() << " W " << w << " mode " << scipyMode(mode)
                          << " i " << i << ": scipy " << expected[at + i] << ", reference " << ref[i]
                          << ", parallel " << fast[i] << " (seed " << seed << ")";
          }
        }
        at += in.size();
      }
    }
  }
  return mismatches;
}

// Every mode, window and awkward size, float64 then float32, in one Python run.
TEST(MedianFilter, MatchesScipyNdimageInEveryMode) {
  SIGLAB_SKIP_WITHOUT_SCIPY();  // the GPU machine may lack SciPy; CI has it (scripts/setup.sh)
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> signals;
  for (std::size_t n : {1u, 2u, 4u, 7u, 64u, 333u}) {
    std::vector<double> s = test::randomSignal(n, rng);
    for (double& v : s) v = static_cast<double>(static_cast<float>(v));  // the same values in both types
    signals.push_back(s);
  }
  const std::vector<double> expected = test::scipyEval(
      "np.concatenate([median(s.astype(t), w, m) for t in [np.float64, np.float32] for s in x "
      "for w in [1, 3, 5, 11, 101] for m in ['constant', 'reflect', 'mirror', 'nearest', 'wrap']])",
      signals, kMedianOracle);
  std::size_t at = 0;
  EXPECT_EQ(countMismatches<double>(signals, expected, at, seed), 0u);
  EXPECT_EQ(countMismatches<float>(signals, expected, at, seed), 0u);
  EXPECT_EQ(at, expected.size());
}

// scipy.signal.medfilt pads with zeros: SigLab's zero mode.
TEST(MedianFilter, ZeroModeMatchesScipySignalMedfilt) {
  SIGLAB_SKIP_WITHOUT_SCIPY();  // the GPU machine may lack SciPy; CI has it (scripts/setup.sh)
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> signals;
  for (std::size_t n : {1u, 2u, 6u, 101u, 257u}) signals.push_back(test::randomSignal(n, rng));
  const std::vector<double> expected =
      test::scipyEval("np.concatenate([signal.medfilt(s, w) for s in x for w in [1, 3, 7, 101]])", signals);
  std::size_t at = 0, bad = 0;
  for (const std::vector<double>& s : signals) {
    for (std::size_t w : {1u, 3u, 7u, 101u}) {
      const std::vector<double> ours = reference(s, w, BoundaryMode::Zero);
      for (std::size_t i = 0; i < s.size() && at + i < expected.size(); ++i) bad += ours[i] != expected[at + i];
      at += s.size();
    }
  }
  EXPECT_EQ(at, expected.size());
  EXPECT_EQ(bad, 0u) << "seed " << seed;
}

// Ties, NaN, signed zeros and infinities, on sizes that cut the parallel engine's pieces unevenly.
template <typename T>
void expectParallelBitIdentical() {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> value(-20, 20);
  const T specials[] = {std::numeric_limits<T>::quiet_NaN(), -std::numeric_limits<T>::quiet_NaN(), T(-0.0), T(0.0),
                        std::numeric_limits<T>::infinity(), -std::numeric_limits<T>::infinity()};
  for (std::size_t n : {0u, 1u, 2u, 50u, 65537u, 140001u}) {
    std::vector<T> in(n);
    for (T& v : in) v = value(rng) > 17 ? specials[static_cast<std::size_t>(value(rng) + 20) % 6] : T(value(rng)) / T(4);
    for (std::size_t w : {1u, 3u, 5u, 7u, 9u, 101u, 1025u}) {  // 3, 5, 7: the sorting networks
      if (n * w > 8000000) continue;  // keeps the O(N W) reference fast
      for (BoundaryMode mode : kModes) {
        const std::vector<T> ref = reference(in, w, mode);
        std::vector<T> fast(n, std::numeric_limits<T>::quiet_NaN());
        medianFilterParallel(std::span<const T>(in), w, mode, std::span<T>(fast));
        std::size_t bad = 0;
        for (std::size_t i = 0; i < n; ++i) bad += !sameBits(ref[i], fast[i]);
        EXPECT_EQ(bad, 0u) << "n " << n << " W " << w << " mode " << scipyMode(mode) << " (seed " << seed << ")";
      }
    }
  }
}

TEST(MedianFilter, ParallelBitIdenticalToReferenceFloat64) { expectParallelBitIdentical<double>(); }
TEST(MedianFilter, ParallelBitIdenticalToReferenceFloat32) { expectParallelBitIdentical<float>(); }

}  // namespace
}  // namespace siglab
