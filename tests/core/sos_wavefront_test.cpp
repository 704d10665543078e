// The sections' wavefront (sos_wavefront.cpp: every section at once, each on its own sample)
// against SciPy's _sosfilt loop written out here: the same bits and the same carried state, for
// every section count up to the wavefront's 16 and past it, and lengths around its start and end.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "siglab/sos_filter.hpp"

namespace siglab {
namespace {

// scipy/signal/_sosfilt.pyx's loop, one sample through every section.
void scipyLoop(const Sections& s, std::vector<double>& x, std::vector<double>& z) {
  for (double& v : x) {
    for (std::size_t k = 0; k < s.size(); ++k) {
      const double y = s[k][0] * v + z[2 * k];
      z[2 * k] = s[k][1] * v - s[k][4] * y + z[2 * k + 1];
      z[2 * k + 1] = s[k][2] * v - s[k][5] * y;
      v = y;
    }
  }
}

bool sameBits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
}

TEST(SosWavefront, EverySectionCountAndLengthGivesScipysLoopsBitsAndState) {
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> coefficient(-0.45, 0.45);
  std::normal_distribution<double> noise;
  for (std::size_t count = 1; count <= 17; ++count) {
    Sections sections(count);
    for (Section& s : sections) s = {1.0 + coefficient(rng), coefficient(rng), coefficient(rng), 1.0, coefficient(rng), coefficient(rng)};
    for (const std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, 4 * count - 1, 4 * count, 4 * count + 1, std::size_t{1001}}) {
      SCOPED_TRACE(std::to_string(count) + " sections, " + std::to_string(n) + " samples");
      std::vector<double> x(n);
      for (double& v : x) v = noise(rng);
      std::vector<double> expected = x, z(2 * count, 0.0);
      scipyLoop(sections, expected, z);
      // In two pieces, the state carried between them, the second in place.
      SosState state;
      std::vector<double> y(n);
      const std::size_t half = n / 2;
      sosfilt(sections, std::span<const double>(x).first(half), std::span<double>(y).first(half), state);
      std::copy(x.begin() + static_cast<std::ptrdiff_t>(half), x.end(), y.begin() + static_cast<std::ptrdiff_t>(half));
      sosfilt(sections, std::span<const double>(y).subspan(half), std::span<double>(y).subspan(half), state);
      EXPECT_TRUE(sameBits(y, expected));
      EXPECT_TRUE(sameBits(state, z));
    }
  }
}

// The block scan runs several blocks at a time on a core where there are blocks enough (8 blocks of
// 65536 here: four at once for up to 4 sections, three for up to 8, on machines of up to 2 or 4 cores),
// their wavefronts interleaved: each block's outputs are still the recursion's bits from its start
// state. Block 0 starts from the true state, so it is sosfilt's; block 1 from zero, so once its
// carried state has faded its outputs are sosfilt's of its own samples from zero.
TEST(SosWavefront, InterleavedBlocksOfTheScanGiveEachBlocksOwnBits) {
  std::mt19937_64 rng(29);
  std::normal_distribution<double> noise;
  const Sections six = {{0.2, 0.4, 0.2, 1, -0.5, 0.3}, {1, -2, 1, 1, -0.9, 0.4}, {1, 2, 1, 1, 0.1, 0.2},
                        {1, 0, -1, 1, 0.3, 0.5}, {1, 1, 0, 1, -0.2, 0.1}, {0.5, 0.1, 0.3, 1, 0.4, 0.2}};
  const std::size_t n = 8 * 65536;
  std::vector<double> x(n), scan(n), serial(n);
  for (double& v : x) v = noise(rng);
  for (const Sections& sections : {six, Sections(six.begin(), six.begin() + 3)}) {
    SCOPED_TRACE(std::to_string(sections.size()) + " sections");
    sosfiltParallel(sections, x, scan, {});
    SosState state;
    sosfilt(sections, x, serial, state);
    const std::vector<std::size_t> cuts = sosScanCuts(sections, n, false);
    ASSERT_FALSE(cuts.empty());
    const std::size_t cut = cuts[0], next = cuts.size() > 1 ? cuts[1] : n;
    EXPECT_TRUE(sameBits({scan.begin(), scan.begin() + static_cast<std::ptrdiff_t>(cut)},
                         {serial.begin(), serial.begin() + static_cast<std::ptrdiff_t>(cut)}));
    std::vector<double> own(next - cut);
    SosState zero;
    sosfilt(sections, std::span<const double>(x).subspan(cut, next - cut), own, zero);
    const std::size_t faded = 2000;  // these poles (radius 0.71 at most) fade to 2^-53 within 110 samples
    EXPECT_TRUE(sameBits({scan.begin() + static_cast<std::ptrdiff_t>(cut + faded), scan.begin() + static_cast<std::ptrdiff_t>(next)},
                         {own.begin() + static_cast<std::ptrdiff_t>(faded), own.end()}));
  }
}

}  // namespace
}  // namespace siglab
