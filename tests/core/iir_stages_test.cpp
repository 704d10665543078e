// The linear filter stages (cheby1, cheby2, ellip, bessel, iirnotch, iirpeak, firwin, lfilter,
// filtfilt, sosfilt, sosfiltfilt) against SciPy on awkward sizes, on every CPU engine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_running.hpp"
#include "siglab/filter_kinds.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/stage.hpp"
#include "engine_test_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::cpuEngines;

std::unique_ptr<BoundStage> bound(const std::string& chain, StageContext context = {}) {
  const Pipeline p = parseChain(chain);
  return p.stages.front().kind->bind(p.stages.front().values, context);
}

std::string bindError(const std::string& chain, StageContext context = {}) {
  try {
    bound(chain, context);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "accepted";
}

std::vector<double> run(const BoundStage& stage, const std::vector<double>& x, const std::string& engine) {
  StageRunOptions options;
  options.engine = engine;
  return stage.apply(cpuEngines(), x, options).result.output.toVector();
}

double largest(const std::vector<double>& x) {
  double m = 0;
  for (double v : x) m = std::max(m, std::abs(v));
  return m;
}

// Each chain's output on each size and engine against SciPy's expression of x[0] (the signal).
struct Case {
  std::string chain;
  std::string scipy;      // of x[0]
  double tolerance;       // relative to the output's peak
  std::size_t shortest;   // smaller sizes are refused (zero phase's padding)
};

void expectMatchesScipy(const std::vector<Case>& cases, const std::vector<std::size_t>& sizes) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  for (const Case& c : cases) {
    for (const std::size_t n : sizes) {
      SCOPED_TRACE(c.chain + " on " + std::to_string(n) + " samples, seed " + std::to_string(seed));
      if (n < c.shortest) {
        StageContext context;
        context.samples = n;
        EXPECT_NE(bindError(c.chain, context), "accepted");
        continue;
      }
      const std::vector<double> x = test::randomSignal(n, rng);
      // SciPy cannot reshape an empty signal: an empty output is the answer.
      const std::vector<double> expected = n == 0 ? std::vector<double>{} : test::scipyEval(c.scipy, {x});
      ASSERT_EQ(expected.size(), n);
      const auto stage = bound(c.chain);
      for (const std::string engine : {"cpu-serial", "cpu-parallel"}) {
        const std::vector<double> ours = run(*stage, x, engine);
        ASSERT_EQ(ours.size(), n) << engine;
        const double scale = std::max(1.0, largest(expected));
        for (std::size_t i = 0; i < n; ++i) ASSERT_NEAR(ours[i], expected[i], c.tolerance * scale) << engine << " at " << i;
      }
    }
  }
}

TEST(IirStages, Cheby1FiltersAsScipySosfiltAndSosfiltfilt) {
  const std::size_t pad = 3 * (2 * 2 + 1);  // sosfiltfilt's default padlen for two sections
  expectMatchesScipy({{"cheby1 4,1,0.2", "signal.sosfilt(signal.cheby1(4, 1, 0.2, output='sos'), x[0])", 1e-12, 0},
                      {"cheby1 4,1,0.2 zero-phase",
                       "signal.sosfiltfilt(signal.cheby1(4, 1, 0.2, output='sos'), x[0])", 1e-12, pad + 1},
                      {"cheby1 3,0.5,0.1,0.4,bandstop",
                       "signal.sosfilt(signal.cheby1(3, 0.5, [0.1, 0.4], 'bandstop', output='sos'), x[0])", 1e-12, 0}},
                     {0, 1, pad, pad + 1, 1001});
}

TEST(IirStages, Cheby2EllipAndBesselFilterAsScipy) {
  expectMatchesScipy(
      {{"cheby2 4,40,0.1,0.3 zero-phase",
        "signal.sosfiltfilt(signal.cheby2(4, 40, [0.1, 0.3], 'bandpass', output='sos'), x[0])", 1e-11, 28},
       {"ellip 5,1,50,0.3,highpass", "signal.sosfilt(signal.ellip(5, 1, 50, 0.3, 'highpass', output='sos'), x[0])", 1e-11, 0},
       {"bessel 4,0.2", "signal.sosfilt(signal.bessel(4, 0.2, output='sos'), x[0])", 1e-12, 0},
       {"bessel 3,0.2 norm mag", "signal.sosfilt(signal.bessel(3, 0.2, norm='mag', output='sos'), x[0])", 1e-12, 0}},
      {0, 1, 28, 29, 1001});
}

TEST(IirStages, NotchAndPeakFilterAsScipyLfilterAndFiltfilt) {
  expectMatchesScipy({{"iirnotch 0.2,30", "signal.lfilter(*signal.iirnotch(0.2, 30), x[0])", 1e-13, 0},
                      {"iirpeak 0.3,5 zero-phase", "signal.filtfilt(*signal.iirpeak(0.3, 5), x[0])", 1e-12, 10}},
                     {0, 1, 9, 10, 1001});
}

// Files of coefficients as numpy.savetxt writes them.
struct Files {
  test::TempDir dir;
  std::string write(const std::string& name, const std::string& text) {
    test::writeFile(dir.file(name), text);
    return dir.file(name);
  }
};

TEST(IirStages, GivenFiltersFromFilesFilterAsScipy) {
  Files f;
  // ellip(4, 1, 40, [0.1, 0.3], 'bandpass', output='sos') as numpy.savetxt writes it.
  const std::string sos = f.dir.file("sos.txt");
  SIGLAB_SKIP_WITHOUT_SCIPY();
  test::scipyEval("np.savetxt('" + sos + "', signal.ellip(4, 1, 40, [0.1, 0.3], 'bandpass', output='sos'))", {});
  const std::string fir = f.write("fir.txt", "0.1\n0.2\n0.4\n0.2\n0.1\n-0.05\n");  // an even count is fine here
  const std::string firA = f.write("fira.txt", "2\n");
  const std::string one = f.write("one.txt", "1\n");
  const std::string b = f.dir.file("b.txt"), a = f.dir.file("a.txt");
  test::scipyEval("[np.savetxt('" + b + "', signal.butter(4, 0.2)[0]), np.savetxt('" + a + "', signal.butter(4, 0.2)[1])]", {});
  const std::string load = "np.loadtxt('";
  expectMatchesScipy(
      {{"sosfilt " + sos, "signal.sosfilt(" + load + sos + "'), x[0])", 1e-12, 0},
       {"sosfiltfilt " + sos, "signal.sosfiltfilt(" + load + sos + "'), x[0])", 1e-12, 28},
       {"lfilter " + fir + "," + firA, "signal.lfilter(" + load + fir + "'), [2.0], x[0])", 1e-14, 0},
       {"filtfilt " + fir + "," + one, "signal.filtfilt(" + load + fir + "'), [1.0], x[0])", 1e-13, 19},
       {"lfilter " + b + "," + a, "signal.lfilter(" + load + b + "'), " + load + a + "'), x[0])", 1e-10, 0},
       {"filtfilt " + b + "," + a, "signal.filtfilt(" + load + b + "'), " + load + a + "'), x[0])", 1e-10, 16}},
      {0, 1, 2, 15, 16, 18, 19, 1001});
}

TEST(IirStages, GivenFiltersRefuseUnstableAndMalformedCoefficientsNamingThem) {
  Files f;
  const std::string one = f.write("one.txt", "1\n");
  const std::string unstable = f.write("unstable.txt", "1\n-2.5\n1.5\n");
  EXPECT_NE(bindError("lfilter " + one + "," + unstable).find("unstable"), std::string::npos);
  EXPECT_NE(bindError("lfilter " + one + "," + f.write("zero.txt", "0\n1\n")).find("a0"), std::string::npos);
  const std::string five = f.write("five.txt", "1 0 0 1 0\n");
  EXPECT_NE(bindError("sosfilt " + five).find(five + ":1"), std::string::npos) << bindError("sosfilt " + five);
  EXPECT_NE(bindError("sosfilt " + five).find("6 numbers"), std::string::npos);
  const std::string scaled = f.write("scaled.txt", "1 0 0 1 0 0\n1 0 0 2 0 0\n");
  EXPECT_NE(bindError("sosfilt " + scaled).find("a0 (the 4th number) must be 1"), std::string::npos);
  EXPECT_NE(bindError("sosfiltfilt " + f.write("bad.txt", "1 0 0 1 -2.5 1.5\n")).find("unstable"), std::string::npos);
  EXPECT_NE(bindError("iirnotch 1.2,30").find("w0 must be from 0 to 1"), std::string::npos);
  EXPECT_NE(bindError("iirpeak 0.2,0").find("Q (the quality factor"), std::string::npos);
  EXPECT_NE(bindError("iirnotch 0,30").find("unstable"), std::string::npos);
}

TEST(IirStages, FirwinFiltersAsScipyLfilterAndFiltfilt) {
  expectMatchesScipy(
      {{"firwin 31,0.2", "signal.lfilter(signal.firwin(31, 0.2), 1.0, x[0])", 1e-13, 0},
       {"firwin 30,0.1,0.3 pass-zero false fir-window blackman",
        "signal.lfilter(signal.firwin(30, [0.1, 0.3], pass_zero=False, window='blackman'), 1.0, x[0])", 1e-13, 0},
       {"firwin 21,0.3 pass-zero highpass fir-window kaiser beta 5 zero-phase",
        "signal.filtfilt(signal.firwin(21, 0.3, pass_zero='highpass', window=('kaiser', 5.0)), 1.0, x[0])", 1e-13, 64},
       {"firwin 15,0.2,0.5 fir-window hann zero-phase",
        "signal.filtfilt(signal.firwin(15, [0.2, 0.5], window='hann'), 1.0, x[0])", 1e-13, 46}},
      {0, 1, 45, 46, 63, 64, 1001});
}

TEST(IirStages, FirwinTapsMatchScipyForEachWindow) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  for (const std::string window : {"hamming", "hann", "blackman", "blackmanharris", "nuttall", "flattop", "boxcar",
                                   "bartlett"}) {
    const auto stage = bound("firwin 11,0.25 fir-window " + window);
    const std::vector<double> expected = test::scipyEval("signal.firwin(11, 0.25, window='" + window + "')", {});
    // lfilter of a unit impulse is the taps.
    std::vector<double> impulse(11, 0.0);
    impulse[0] = 1;
    const std::vector<double> ours = run(*stage, impulse, "cpu-serial");
    ASSERT_EQ(expected.size(), ours.size());
    for (std::size_t i = 0; i < ours.size(); ++i) EXPECT_NEAR(ours[i], expected[i], 1e-15) << window << " tap " << i;
  }
}

// Every design is sections to the engines: described, refused and reported as what it is.
TEST(IirStages, EnginesAndDescriptionsNameADesignNotButterworth) {
  const auto stage = bound("cheby1 4,1,0.2 zero-phase");
  ASSERT_NE(stage->filterSpec(), nullptr);
  const FilterSpec& spec = *stage->filterSpec();
  EXPECT_EQ(spec.kind, FilterKind::Sos);
  EXPECT_EQ(stage->describe(), "cheby1 order 4 lowpass 0.2 x Nyquist rp 1 dB, 2 sections, zero phase (sosfiltfilt)");
  const std::string why = CpuRunningBackend().whyNot(spec, SampleType::f64);
  EXPECT_NE(why.find("not a sos"), std::string::npos) << why;
  EXPECT_EQ(why.find("butterworth"), std::string::npos) << why;
  EXPECT_EQ(stage->engineNames(cpuEngines()), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
  EXPECT_TRUE(stage->streamsWithoutHistory());  // sections stream serially, as butter's do
}

TEST(IirStages, DesignsRefuseBadParametersNamingThem) {
  EXPECT_NE(bindError("cheby1 4,0,0.2").find("rp"), std::string::npos);
  EXPECT_NE(bindError("cheby1 0,1,0.2").find("ORDER must be a whole number from 1 to 32"), std::string::npos)
      << bindError("cheby1 0,1,0.2");
  EXPECT_NE(bindError("cheby1 4,1,1.5").find("between 0 and 1"), std::string::npos);
  StageContext rated;
  rated.sampleRate = 1000;
  EXPECT_NE(bindError("cheby1 4,1,600", rated).find("Nyquist frequency 500 Hz"), std::string::npos);
  EXPECT_EQ(bindError("cheby1 4,1,200", rated), "accepted");
  EXPECT_NE(bindError("cheby2 4,-1,0.2").find("rs"), std::string::npos);
  EXPECT_NE(bindError("ellip 4,1,0.2").find("takes ORDER,RP,RS,CUTOFF"), std::string::npos);
  EXPECT_NE(bindError("bessel 19,0.2").find("ORDER must be a whole number from 1 to 18"), std::string::npos);
  EXPECT_NE(bindError("bessel 4,0.2 norm loud").find("norm"), std::string::npos);
  EXPECT_NE(bindError("firwin 30,0.2 pass-zero false").find("even number of taps"), std::string::npos);
  EXPECT_NE(bindError("firwin 31,0.3,0.2").find("strictly increasing"), std::string::npos);
  EXPECT_NE(bindError("firwin 31,0.2,0.3 pass-zero lowpass").find("takes one cutoff"), std::string::npos);
  EXPECT_NE(bindError("firwin 0,0.2").find("NUMTAPS must be a whole number from 1"), std::string::npos);
}

}  // namespace
}  // namespace siglab
