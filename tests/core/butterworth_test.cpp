#include "siglab/butterworth.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "siglab/sos_filter.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

const char* scipyType(BandType t) {
  switch (t) {
    case BandType::Lowpass: return "lowpass";
    case BandType::Highpass: return "highpass";
    case BandType::Bandpass: return "bandpass";
    case BandType::Bandstop: return "bandstop";
  }
  return "";
}

std::string scipyButter(const ButterworthSpec& s) {
  const bool band = s.type == BandType::Bandpass || s.type == BandType::Bandstop;
  const std::string wn = band ? "[" + std::to_string(s.cutoff) + ", " + std::to_string(s.cutoff2) + "]"
                              : std::to_string(s.cutoff);
  return "signal.butter(" + std::to_string(s.order) + ", " + wn + ", '" + scipyType(s.type) + "', output='sos'" +
         (s.sampleRate > 0 ? ", fs=" + std::to_string(s.sampleRate) : std::string()) + ")";
}

// std::to_string's six decimals are what both sides see: the designs below use such values.
const std::vector<ButterworthSpec> kDesigns = {
    {1, 0.3}, {2, 0.5, 0, BandType::Highpass}, {3, 0.125}, {5, 0.7, 0, BandType::Highpass},
    {8, 0.1, 0.3, BandType::Bandpass}, {8, 1000, 3000, BandType::Bandpass, 44100}, {4, 0.2, 0.6, BandType::Bandstop},
    {7, 0.05, 0.45, BandType::Bandstop}, {13, 0.25}, {32, 0.01}, {32, 0.4, 0, BandType::Highpass},
    {9, 0.001, 0.002, BandType::Bandpass}, {6, 12.5, 0, BandType::Lowpass, 100}};

std::vector<double> flatten(const Sections& sections) {
  std::vector<double> flat;
  for (const Section& s : sections) flat.insert(flat.end(), s.begin(), s.end());
  return flat;
}

std::complex<double> response(const Sections& sections, double w) {  // w: fraction of Nyquist
  const std::complex<double> zi = std::exp(std::complex<double>(0, -std::numbers::pi * w));
  std::complex<double> h = 1;
  for (const Section& s : sections) h *= (s[0] + s[1] * zi + s[2] * zi * zi) / (s[3] + s[4] * zi + s[5] * zi * zi);
  return h;
}

TEST(Butterworth, SectionsMatchScipyButter) {
  SIGLAB_SKIP_WITHOUT_SCIPY();  // the GPU machine may lack SciPy; CI has it (scripts/setup.sh)
  std::string expression = "np.concatenate([";
  std::vector<double> ours;
  for (const ButterworthSpec& d : kDesigns) {
    expression += scipyButter(d) + ".ravel(), ";
    const std::vector<double> flat = flatten(butterworthSections(d));
    ours.insert(ours.end(), flat.begin(), flat.end());
  }
  const std::vector<double> expected = test::scipyEval(expression + "])", {});
  ASSERT_EQ(expected.size(), ours.size());
  for (std::size_t i = 0; i < ours.size(); ++i) {
    // Each row against its own scale: the first section carries the (possibly tiny) gain.
    const std::size_t row = i / 3 * 3;
    const double scale = std::max({std::abs(expected[row]), std::abs(expected[row + 1]), std::abs(expected[row + 2])});
    EXPECT_NEAR(ours[i], expected[i], 1e-12 * scale) << "value " << i;
  }
}

TEST(Butterworth, MagnitudeAtTheCutoffIsMinus3dB) {
  const double minus3dB = 10 * std::log10(0.5);  // -3.0103 dB: half the power
  for (const ButterworthSpec& d : kDesigns) {
    const Sections sections = butterworthSections(d);
    const double nyquist = d.sampleRate > 0 ? d.sampleRate / 2 : 1.0;
    std::vector<double> edges = {d.cutoff / nyquist};
    if (d.type == BandType::Bandpass || d.type == BandType::Bandstop) edges.push_back(d.cutoff2 / nyquist);
    for (double w : edges) {
      EXPECT_NEAR(20 * std::log10(std::abs(response(sections, w))), minus3dB, 1e-8) << "order " << d.order;
    }
    // And the pass band passes: unit gain at DC (lowpass, bandstop), Nyquist (highpass) or the centre.
    const double pass = d.type == BandType::Lowpass || d.type == BandType::Bandstop ? 0.0
                        : d.type == BandType::Highpass                             ? 1.0
                                                                                   : std::sqrt(edges[0] * edges[1]);
    if (d.type != BandType::Bandpass) {
      EXPECT_NEAR(std::abs(response(sections, pass)), 1.0, 1e-9);
    }
  }
}

TEST(Butterworth, RejectsBadParametersNamingTheRange) {
  const auto message = [](const ButterworthSpec& spec) {
    try {
      butterworthSections(spec);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message({0, 0.2}).find("butterworth order must be 1 to 32, got 0"), std::string::npos);
  EXPECT_NE(message({33, 0.2}).find("butterworth order must be 1 to 32, got 33"), std::string::npos);
  for (double bad : {0.0, 1.0, -0.5, 1.5, std::nan("")}) {
    EXPECT_NE(message({4, bad}).find("between 0 and 1"), std::string::npos) << bad;
  }
  EXPECT_NE(message({4, 22050, 0, BandType::Lowpass, 44100}).find("Nyquist frequency 22050 Hz"), std::string::npos);
  EXPECT_NE(message({4, 0.5, 0.2, BandType::Bandpass}).find("must increase"), std::string::npos);
  EXPECT_NE(message({4, 0.5, 0.5, BandType::Bandstop}).find("must increase"), std::string::npos);
  EXPECT_THROW(checkStable({Section{1, 0, 0, 1, 0, 1.5}}), std::invalid_argument);
  EXPECT_THROW(checkStable({Section{1, 0, 0, 1, -2.5, 0.9}}), std::invalid_argument);
  std::vector<double> x(10), y(10);
  EXPECT_THROW(sosfiltfilt(butterworthSections({8, 0.1, 0.3, BandType::Bandpass}), x, y), std::invalid_argument);
}

// sosfilt, sosfilt_zi and sosfiltfilt against scipy on the same sections and awkward sizes.
TEST(Butterworth, FilteringMatchesScipySosfiltAndSosfiltfilt) {
  SIGLAB_SKIP_WITHOUT_SCIPY();  // the GPU machine may lack SciPy; CI has it (scripts/setup.sh)
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<ButterworthSpec> designs = {{4, 0.2}, {8, 0.1, 0.3, BandType::Bandpass}, {3, 0.6, 0, BandType::Highpass}};
  std::vector<std::vector<double>> inputs;
  std::string expression = "np.concatenate([";
  std::vector<double> ours;
  double scale = 0;
  for (std::size_t d = 0; d < designs.size(); ++d) {
    const Sections sections = butterworthSections(designs[d]);
    const std::string sos = "x[" + std::to_string(inputs.size()) + "].reshape(-1, 6)";
    inputs.push_back(flatten(sections));
    const SosState zi = sosfiltZi(sections);
    ours.insert(ours.end(), zi.begin(), zi.end());
    expression += "signal.sosfilt_zi(" + sos + ").ravel(), ";
    const std::size_t pad = sosfiltfiltPadLength(sections);
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, pad + 1, pad + 2, std::size_t{2001}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      for (double v : x) scale = std::max(scale, std::abs(v));
      const std::string xs = "x[" + std::to_string(inputs.size()) + "]";
      inputs.push_back(x);
      std::vector<double> y(n, std::nan("")), z(n, std::nan(""));
      SosState state;
      sosfilt(sections, x, y, state);
      ours.insert(ours.end(), y.begin(), y.end());
      expression += "signal.sosfilt(" + sos + ", " + xs + "), ";
      if (n > pad) {
        sosfiltfilt(sections, x, z);
        ours.insert(ours.end(), z.begin(), z.end());
        expression += "signal.sosfiltfilt(" + sos + ", " + xs + "), ";
      }
    }
  }
  const std::vector<double> expected = test::scipyEval(expression + "])", inputs);
  ASSERT_EQ(expected.size(), ours.size());
  std::size_t bad = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) bad += !(std::abs(ours[i] - expected[i]) <= 1e-11 * std::max(1.0, scale));
  EXPECT_EQ(bad, 0u) << "seed " << seed;
}

TEST(Butterworth, ZeroPhaseOutputOfASymmetricPulseIsSymmetric) {
  std::vector<double> x(4001, 0.0);
  for (int k = -40; k <= 40; ++k) x[2000 + k] = std::exp(-k * k / 8.0);
  for (const ButterworthSpec& d : {ButterworthSpec{4, 0.05}, ButterworthSpec{8, 0.1, 0.3, BandType::Bandpass}}) {
    const Sections sections = butterworthSections(d);
    std::vector<double> y(x.size(), std::nan("")), p(x.size(), std::nan(""));
    sosfiltfilt(sections, x, y);
    sosfiltfiltParallel(sections, x, p);
    double peak = 0;
    for (double v : y) peak = std::max(peak, std::abs(v));
    EXPECT_GT(peak, 0.01);
    for (std::size_t i = 0; i < x.size(); ++i) {
      ASSERT_NEAR(y[i], y[x.size() - 1 - i], 1e-12 * peak) << "order " << d.order << " i " << i;
      ASSERT_NEAR(p[i], p[x.size() - 1 - i], 1e-12 * peak) << "order " << d.order << " i " << i;
    }
  }
}

// The block scan against the serial reference, within the bound it states, on sizes that cut the
// blocks unevenly, from zero and from non-zero initial states; outputs poisoned first.
TEST(Butterworth, ParallelScanWithinItsStatedBound) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const std::vector<ButterworthSpec> designs = {{8, 0.1, 0.3, BandType::Bandpass}, {2, 0.01}, {5, 0.8, 0, BandType::Highpass},
                                                {6, 0.02, 0.05, BandType::Bandstop}};
  for (const ButterworthSpec& d : designs) {
    const Sections sections = butterworthSections(d);
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{100}, std::size_t{131073}, std::size_t{400009}}) {
      const std::vector<double> x = test::randomSignal(n, rng);
      const double maxAbs = n ? std::abs(*std::max_element(x.begin(), x.end(), [](double a, double b) {
        return std::abs(a) < std::abs(b);
      })) : 0.0;
      SosState initial = sosfiltZi(sections);
      for (double& v : initial) v *= 37.0;
      for (const bool fromZero : {true, false}) {
        SosState state = fromZero ? SosState{} : initial;
        std::vector<double> serial(n, std::nan("")), parallel(n, std::nan(""));
        sosfilt(sections, x, serial, state);
        const double bound = sosfiltParallel(sections, x, parallel, fromZero ? SosState{} : initial);
        double worst = 0;
        for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(parallel[i] - serial[i]));
        EXPECT_LE(worst, bound) << "order " << d.order << " n " << n << " (seed " << seed << ")";
        // A worst-case first-order bound is far above the typical error (about 1e-16 relative here),
        // but it must still promise six digits to mean anything.
        EXPECT_LE(bound, 1e-6 * std::max(1.0, maxAbs)) << "a bound too loose to mean anything";
      }
      if (n > sosfiltfiltPadLength(sections)) {
        std::vector<double> serial(n, std::nan("")), parallel(n, std::nan(""));
        sosfiltfilt(sections, x, serial);
        const double bound = sosfiltfiltParallel(sections, x, parallel);
        double worst = 0;
        for (std::size_t i = 0; i < n; ++i) worst = std::max(worst, std::abs(parallel[i] - serial[i]));
        EXPECT_LE(worst, bound) << "zero phase, order " << d.order << " n " << n << " (seed " << seed << ")";
      }
    }
  }
}

}  // namespace
}  // namespace siglab
