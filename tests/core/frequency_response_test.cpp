// The FIR response: the mean filter's Dirichlet kernel and scipy.signal.freqz.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numbers>
#include <random>

#include "scipy_support.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/taps.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

TEST(FrequencyResponse, MeanFilterIsTheDirichletKernel) {
  for (std::size_t w : {1u, 5u, 101u, 8001u}) {
    const FilterSpec mean = makeMeanFilter(w);
    const std::size_t points = 512;
    const FrequencyResponse r = firResponse(mean.taps, points, 44100.0);
    ASSERT_EQ(r.response.size(), points);
    for (std::size_t k = 0; k < points; ++k) {
      const double omega = std::numbers::pi * static_cast<double>(k) / points;
      // (1/W) sum_j e^{-i w j} = e^{-i w (W-1)/2} sin(W w / 2) / (W sin(w / 2)); 1 at w = 0.
      const double amplitude =
          k == 0 ? 1.0 : std::sin(static_cast<double>(w) * omega / 2) / (static_cast<double>(w) * std::sin(omega / 2));
      const std::complex<double> expected = amplitude * std::polar(1.0, -omega * (static_cast<double>(w) - 1) / 2);
      // Summing W terms of size 1/W: a few u W of rounding.
      ASSERT_NEAR(std::abs(r.response[k] - expected), 0.0, 1e-15 * static_cast<double>(w) + 1e-15) << "W " << w << " k " << k;
      EXPECT_DOUBLE_EQ(r.frequency[k], 44100.0 * static_cast<double>(k) / (2 * points));
    }
    EXPECT_NEAR(r.magnitudeDb()[0], 0.0, 1e-11);  // W roundings of 1/W summed
  }
}

// sum_j taps[j] exp(-i pi j k / points) in long double, term by term.
std::complex<double> naiveResponse(const std::vector<double>& taps, std::size_t points, std::size_t k) {
  std::complex<long double> sum = 0;
  for (std::size_t j = 0; j < taps.size(); ++j) {
    const long double angle = -std::numbers::pi_v<long double> * static_cast<long double>((j * k) % (2 * points)) /
                              static_cast<long double>(points);
    sum += static_cast<long double>(taps[j]) * std::polar(1.0L, angle);
  }
  return {static_cast<double>(sum.real()), static_cast<double>(sum.imag())};
}

TEST(FrequencyResponse, WorkIsBoundedByTheGridWhateverTheTaps) {
  // response --window 100000001 ran over 300 s: taps past 2 points fold, past the direct sums'
  // work the grid is one FFT.
  std::mt19937_64 rng(test::freshSeed());
  for (const auto& [count, points] : {std::pair<std::size_t, std::size_t>{3001, 512}, {9001, 1u << 14}, {5, 1u << 14}}) {
    const std::vector<double> taps = test::randomSignal(count, rng, 1.0);
    double scale = 0;
    for (double t : taps) scale += std::abs(t);
    const FrequencyResponse r = firResponse(taps, points);
    for (std::size_t k : {std::size_t{0}, std::size_t{1}, std::size_t{77}, points - 1}) {
      EXPECT_LE(std::abs(r.response[k] - naiveResponse(taps, points, k)), 1e-13 * scale) << count << " " << points << " " << k;
    }
  }
  const FrequencyResponse eager = firResponse(makeMeanFilter(8001).taps, 512), lazy = meanResponse(8001, 512);
  for (std::size_t k = 0; k < 512; ++k) EXPECT_LE(std::abs(eager.response[k] - lazy.response[k]), 1e-14) << k;
  // Folded, never held: 2^62 - 1 taps are 1024 values here (siglab-cli-tests runs it under a memory limit).
  EXPECT_NEAR(std::abs(meanResponse((std::uint64_t{1} << 62) - 1, 512).response[0]), 1.0, 1e-12);
  EXPECT_THROW(meanResponse(4, 512), std::invalid_argument);
  EXPECT_THROW(firResponse(std::vector<double>{1.0}, kMaxResponsePoints + 1), std::invalid_argument);
}

TEST(FrequencyResponse, AgreesWithScipyFreqz) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<double> taps = test::randomSignal(37, rng, 1.0);
  const std::vector<double> gaussian = makeGaussianFilter(20.0).taps;
  writeSignal(dir.file("a.npy"), taps);
  writeSignal(dir.file("b.npy"), gaussian);
  std::string script = "import numpy as np, scipy.signal as s\n";
  for (const char* name : {"a", "b"}) {
    script += std::string("w, h = s.freqz(np.load('") + dir.file(std::string(name) + ".npy") + "'), worN=300, fs=1000.0)\n";
    script += "np.save('" + dir.file(std::string(name) + "-w.npy") + "', w)\n";
    script += "np.save('" + dir.file(std::string(name) + "-re.npy") + "', h.real)\n";
    script += "np.save('" + dir.file(std::string(name) + "-im.npy") + "', h.imag)\n";
  }
  test::writeFile(dir.file("freqz.py"), script);
  ASSERT_TRUE(test::runPython(dir.file("freqz.py")));
  for (const char* name : {"a", "b"}) {
    const std::vector<double>& t = name[0] == 'a' ? taps : gaussian;
    const FrequencyResponse r = firResponse(t, 300, 1000.0);
    const auto w = readSignal(dir.file(std::string(name) + "-w.npy")).samples;
    const auto re = readSignal(dir.file(std::string(name) + "-re.npy")).samples;
    const auto im = readSignal(dir.file(std::string(name) + "-im.npy")).samples;
    double sumAbs = 0.0;
    for (double v : t) sumAbs += std::fabs(v);
    for (std::size_t k = 0; k < 300; ++k) {
      ASSERT_NEAR(r.frequency[k], w[k], 1e-12 * 500);
      // Two sums of W products, each within ~W u sum|taps| of the exact value.
      const double bound = 4e-16 * static_cast<double>(t.size()) * sumAbs;
      ASSERT_NEAR(r.response[k].real(), re[k], bound) << name << " k " << k << " seed " << seed;
      ASSERT_NEAR(r.response[k].imag(), im[k], bound) << name << " k " << k << " seed " << seed;
    }
  }
}

TEST(FrequencyResponse, RefusesWhatItCannotCompute) {
  EXPECT_THROW(firResponse({}, 512), std::invalid_argument);
  const std::vector<double> taps{1.0};
  EXPECT_THROW(firResponse(taps, 0), std::invalid_argument);
  EXPECT_THROW(firResponse(taps, 8, 0.0), std::invalid_argument);
  EXPECT_EQ(firResponse(taps, 8).frequency[4], 0.25);  // cycles per sample without a rate
}

}  // namespace
}  // namespace siglab
