// The linear filter stages (cheby1, cheby2, ellip, bessel, iirnotch, iirpeak, firwin, lfilter,
// filtfilt, sosfilt, sosfiltfilt) against SciPy on awkward sizes, on every CPU engine.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/pipeline.hpp"
#include "siglab/stage.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

BackendList cpuEngines() {
  BackendList engines;
  engines.push_back(std::make_unique<CpuSerialBackend>());
  engines.push_back(std::make_unique<CpuParallelBackend>());
  return engines;
}

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
}

}  // namespace
}  // namespace siglab
