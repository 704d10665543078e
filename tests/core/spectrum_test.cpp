// Welch's spectrum: closed forms, Parseval, the long-double reference and scipy.signal.welch.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "shared_helpers.hpp"
#include "scipy_support.hpp"
#include "siglab/auto_engine_rule.hpp"
#include "siglab/io/binary_formats.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/spectrum.hpp"
#include "siglab/welch_engine.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr SpectrumWindow kWindows[] = {SpectrumWindow::hann, SpectrumWindow::hamming, SpectrumWindow::blackman,
                                       SpectrumWindow::boxcar};

using test::maxAbs;

std::vector<double> tone(std::size_t n, double amplitude, double cyclesPerSample, double phase) {
  std::vector<double> x(n);
  for (std::size_t j = 0; j < n; ++j) {
    x[j] = amplitude * std::cos(2.0 * std::numbers::pi * cyclesPerSample * static_cast<double>(j) + phase);
  }
  return x;
}

TEST(Spectrum, ToneAtABinCentreReadsItsPowerAndHannLeaksAQuarterIntoEachNeighbour) {
  // scaling=spectrum: a tone A cos(2 pi m j / n) has power A^2 / 2 at bin m whatever the window.
  const std::size_t n = 256, m = 20;
  const double amplitude = 3.0;
  const std::vector<double> x = tone(10 * n + 77, amplitude, static_cast<double>(m) / n, 0.7);
  for (SpectrumWindow window : kWindows) {
    WelchOptions o;
    o.segment = n;
    o.window = window;
    o.scaling = SpectrumScaling::spectrum;
    o.sampleRate = 1000.0;
    const Spectrum s = welch(x, o);
    ASSERT_EQ(s.power.size(), n / 2 + 1);
    EXPECT_DOUBLE_EQ(s.frequency[m], 1000.0 * m / n);
    EXPECT_NEAR(s.power[m], amplitude * amplitude / 2, 1e-12) << toString(window);
    if (window == SpectrumWindow::boxcar) {
      EXPECT_NEAR(s.power[m + 1], 0.0, 1e-20);
    }
    if (window == SpectrumWindow::hann) {
      // The periodic Hann window's DFT is n/2 at 0 and -n/4 at +-1, nothing elsewhere.
      EXPECT_NEAR(s.power[m + 1], amplitude * amplitude / 8, 1e-12);
      EXPECT_NEAR(s.power[m - 1], amplitude * amplitude / 8, 1e-12);
      EXPECT_NEAR(s.power[m + 2], 0.0, 1e-20);
    }
  }
}

TEST(Spectrum, WhiteNoiseDensityIsTwiceTheVarianceOverTheRate) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  const double sigma = 2.5, rate = 8000.0;
  std::normal_distribution<double> noise(0.0, sigma);
  std::vector<double> x(1 << 20);
  for (double& v : x) v = noise(rng);
  for (SpectrumWindow window : kWindows) {
    WelchOptions o;
    o.window = window;
    o.sampleRate = rate;
    const Spectrum s = welch(x, o);
    double mean = 0.0;
    for (std::size_t k = 1; k + 1 < s.power.size(); ++k) mean += s.power[k];
    mean /= static_cast<double>(s.power.size() - 2);
    // About 8000 segments x 127 bins: the average's relative spread is well under 1%.
    EXPECT_NEAR(mean, 2 * sigma * sigma / rate, 0.03 * 2 * sigma * sigma / rate) << toString(window) << " seed " << seed;
  }
}

TEST(Spectrum, ParsevalTheDensityIntegratesToTheMeanSquare) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 2u, 7u, 64u, 255u, 256u}) {
    const std::vector<double> x = test::randomSignal(n * 13, rng);
    WelchOptions o;
    o.segment = n;
    o.overlap = 0;
    o.window = SpectrumWindow::boxcar;
    o.detrend = Detrend::none;
    o.sampleRate = 48000.0;
    const Spectrum s = welch(x, o);
    double integral = 0.0, meanSquare = 0.0;
    for (double p : s.power) integral += p * 48000.0 / static_cast<double>(n);
    for (double v : x) meanSquare += v * v;
    meanSquare /= static_cast<double>(x.size());
    EXPECT_NEAR(integral, meanSquare, 1e-12 * meanSquare) << "segment " << n << " seed " << seed;
  }
}

TEST(Spectrum, FftwAgreesWithTheLongDoubleReferenceForEveryOptionAndAwkwardSize) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 2u, 3u, 16u, 17u, 100u, 128u}) {
    for (std::size_t length : {n, n + 1, 3 * n + 5}) {
      const std::vector<double> x = test::randomSignal(length, rng);
      for (SpectrumWindow window : kWindows) {
        for (auto scaling : {SpectrumScaling::density, SpectrumScaling::spectrum}) {
          for (auto detrend : {Detrend::constant, Detrend::none}) {
            for (std::size_t overlap : {std::size_t{0}, n / 2, n - 1}) {
              WelchOptions o{n, overlap, window, scaling, detrend, 250.0};
              const Spectrum want = welchReference(x, o), got = welch(x, o);
              ASSERT_EQ(got.power.size(), n / 2 + 1);
              const double bound = spectrumAgreementBound(o, maxAbs(x), x.size());
              for (std::size_t k = 0; k < want.power.size(); ++k) {
                ASSERT_NEAR(got.power[k], want.power[k], bound)
                    << "segment " << n << " length " << length << " " << toString(window) << " overlap " << overlap
                    << " bin " << k << " seed " << seed;
                ASSERT_EQ(got.frequency[k], want.frequency[k]);
              }
            }
          }
        }
      }
    }
  }
}

TEST(Spectrum, AgreesWithScipyWelchForEveryWindowScalingAndDetrend) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<double> x = test::randomSignal(5003, rng, 10.0);
  writeSignal(dir.file("x.npy"), x);
  std::vector<WelchOptions> cases;
  for (SpectrumWindow window : kWindows) {
    for (auto scaling : {SpectrumScaling::density, SpectrumScaling::spectrum}) {
      for (auto detrend : {Detrend::constant, Detrend::none}) {
        cases.push_back(WelchOptions{256, std::nullopt, window, scaling, detrend, 44100.0});
        cases.push_back(WelchOptions{99, 40, window, scaling, detrend, std::nullopt});
      }
    }
  }
  std::string script = "import numpy as np, scipy.signal as s\nx = np.load('" + dir.file("x.npy") + "')\n";
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const WelchOptions& o = cases[i];
    script += "f, p = s.welch(x, fs=" + std::to_string(o.sampleRate.value_or(1.0)) + ", window='" +
              std::string(toString(o.window)) + "', nperseg=" + std::to_string(o.segment) +
              ", noverlap=" + std::to_string(o.overlapOrDefault()) + ", scaling='" +
              (o.scaling == SpectrumScaling::density ? "density" : "spectrum") + "', detrend=" +
              (o.detrend == Detrend::constant ? "'constant'" : "False") + ")\n";
    script += "np.save('" + dir.file("f" + std::to_string(i) + ".npy") + "', f)\n";
    script += "np.save('" + dir.file("p" + std::to_string(i) + ".npy") + "', p)\n";
  }
  test::writeFile(dir.file("welch.py"), script);
  ASSERT_TRUE(test::runPython(dir.file("welch.py")));
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const WelchOptions& o = cases[i];
    const Spectrum got = welch(x, o);
    const SampleVector f = readSignal(dir.file("f" + std::to_string(i) + ".npy")).samples;
    const SampleVector p = readSignal(dir.file("p" + std::to_string(i) + ".npy")).samples;
    ASSERT_EQ(p.size(), got.power.size());
    const double bound = spectrumAgreementBound(o, maxAbs(x), x.size());
    for (std::size_t k = 0; k < p.size(); ++k) {
      ASSERT_NEAR(got.power[k], p[k], bound) << toString(o.window) << " case " << i << " bin " << k << " seed " << seed;
      ASSERT_NEAR(got.frequency[k], f[k], 1e-12 * f.back());
    }
  }
}

TEST(Spectrum, WindowsAreScipysPeriodicWindows) {
  // scipy.signal.get_window(name, 8)
  const std::vector<double> hann = spectrumWindow(SpectrumWindow::hann, 8);
  const double expected[] = {0.0, 0.14644660940672624, 0.5, 0.8535533905932737, 1.0, 0.8535533905932737, 0.5,
                             0.14644660940672624};
  for (std::size_t i = 0; i < 8; ++i) EXPECT_NEAR(hann[i], expected[i], 1e-15);
  EXPECT_NEAR(spectrumWindow(SpectrumWindow::hamming, 4)[0], 0.08, 1e-15);
  EXPECT_NEAR(spectrumWindow(SpectrumWindow::blackman, 4)[2], 1.0, 1e-15);
  EXPECT_EQ(spectrumWindow(SpectrumWindow::hann, 1), std::vector<double>{1.0});
}

TEST(Spectrum, BadOptionsNameTheOptionAndTheAllowedRange) {
  const std::vector<double> x(100, 1.0);
  const auto message = [&](WelchOptions o) -> std::string {
    try {
      welch(x, o);
    } catch (const SpectrumOptionError& e) {
      return e.option() + ": " + e.what();
    }
    return "no error";
  };
  WelchOptions o;
  EXPECT_EQ(message(o), "--segment: the segment must be 1 to 100 samples (the signal's length), got 256");
  o.segment = 50;
  o.overlap = 50;
  EXPECT_EQ(message(o), "--overlap: the overlap must be 0 to 49 samples (less than the segment), got 50");
  o.overlap = 10;
  o.sampleRate = -1.0;
  EXPECT_EQ(message(o), "--rate: the rate must be a finite number of Hz greater than 0, got -1");
  o.sampleRate = std::nan("");
  EXPECT_EQ(message(o), "--rate: the rate must be a finite number of Hz greater than 0, got nan");
  EXPECT_THROW(welch(std::vector<double>{}, WelchOptions{}), SpectrumOptionError);
}

}  // namespace
}  // namespace siglab

namespace siglab {
namespace {

// Welch's engine rule, the one the CLI, Python and the desktop present: auto takes the GPU where one
// can run it, else FFTW saying why; gpu where none can is refused; cpu is FFTW with no excuse.
TEST(WelchEngineRule, AutoFallsBackSayingWhyGpuIsRefusedWhereNoneCan) {
  const WelchEngineChoice gpu = chooseWelchEngine("auto", {0, 1}, "", kWelchGpuMinSamples);
  EXPECT_EQ(gpu.engine, WelchEngine::gpu);
  EXPECT_EQ(gpu.devices, (std::vector<int>{0, 1}));
  EXPECT_EQ(gpu.note(), "gpu (cuFFT) on devices 0,1");
  EXPECT_EQ(chooseWelchEngine("gpu", {}, "", 1000).note(), "gpu (cuFFT)");  // named: whatever the size
  const WelchEngineChoice none = chooseWelchEngine("auto", {}, "no CUDA device", kWelchGpuMinSamples);
  EXPECT_EQ(none.engine, WelchEngine::cpu);
  EXPECT_EQ(none.note(), "cpu (FFTW); the GPU could not run it: no CUDA device");
  EXPECT_EQ(chooseWelchEngine("cpu", {0}, "", kWelchGpuMinSamples).note(), "cpu (FFTW)");
  EXPECT_THROW(chooseWelchEngine("gpu", {}, "no CUDA device", 1000), std::invalid_argument);
  EXPECT_THROW(chooseWelchEngine("fast", {}, "", 1000), std::invalid_argument);
  EXPECT_EQ(welchCpuFallback("out of memory").note(), "cpu (FFTW); the GPU could not run it: out of memory");
}

// Auto's Welch is a row of the one auto table: FFTW below kWelchGpuMinSamples samples (a GPU's
// copies and launches cost more than FFTW's whole pass there), cuFFT from it on, as the rule says.
TEST(WelchEngineRule, AutoTakesTheGpuOnlyFromTheTablesWelchRow) {
  EXPECT_EQ(autoThreshold(AutoWork::Welch).least, kWelchGpuMinSamples);
  const WelchEngineChoice small = chooseWelchEngine("auto", {0}, "", kWelchGpuMinSamples - 1);
  EXPECT_EQ(small.engine, WelchEngine::cpu);
  EXPECT_EQ(small.note(), "cpu (FFTW); " + autoEngineOrder({AutoWork::Welch, kWelchGpuMinSamples - 1, "gpu", {}, false}).front().why);
  EXPECT_NE(small.note().find(std::to_string(kWelchGpuMinSamples - 1) + " samples < " + std::to_string(kWelchGpuMinSamples)),
            std::string::npos) << small.note();
  EXPECT_EQ(chooseWelchEngine("auto", {0}, "", 1000).engine, WelchEngine::cpu);
  EXPECT_EQ(chooseWelchEngine("auto", {0}, "", kWelchGpuMinSamples).engine, WelchEngine::gpu);
}

}  // namespace
}  // namespace siglab
