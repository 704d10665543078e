// The detrend stage against scipy.signal.detrend, on awkward sizes and in float32.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <random>

#include "scipy_support.hpp"
#include "siglab/errors.hpp"
#include "siglab/io/signal_io.hpp"
#include "siglab/job.hpp"
#include "siglab/pipeline.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

std::unique_ptr<BoundStage> detrend(std::string_view type) {
  const Pipeline p = parseChain("detrend " + std::string(type));
  return p.stages.front().kind->bind(p.stages.front().values, {});
}

AppliedJob run(std::string_view type, std::span<const double> x, std::string engine = "auto",
               SampleType sampleType = SampleType::f64) {
  StageRunOptions options;
  options.engine = std::move(engine);
  options.sampleType = sampleType;
  return detrend(type)->apply({}, x, options);
}

// A trend well above the noise, so the fit matters: offset, slope and a little curvature.
std::vector<double> trended(std::size_t n, std::mt19937_64& rng) {
  std::vector<double> x = test::randomSignal(n, rng, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = static_cast<double>(i) / static_cast<double>(std::max<std::size_t>(n, 1));
    x[i] += 1000.0 - 300.0 * t + 20.0 * t * t;
  }
  return x;
}

double largest(std::span<const double> x) {
  double m = 0.0;
  for (const double v : x) m = std::max(m, std::fabs(v));
  return m;
}

TEST(Detrend, AgreesWithScipyOnAwkwardSizesInFloat64AndFloat32) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<std::size_t> sizes = {1, 2, 3, 1000, 1000003};
  std::vector<std::vector<double>> signals;
  std::string script = "import numpy as np, scipy.signal as s\n";
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    signals.push_back(trended(sizes[k], rng));
    const std::string name = dir.file(std::to_string(k));
    writeSignal(name + ".npy", signals.back());
    script += "x = np.load('" + name + ".npy')\n";
    script += "x32 = x.astype(np.float32).astype(np.float64)\n";  // float32's input, detrended in float64
    for (const char* type : {"linear", "constant"}) {
      script += std::string("np.save('") + name + "-" + type + ".npy', s.detrend(x, type='" + type + "'))\n";
      script += std::string("np.save('") + name + "-" + type + "-32.npy', s.detrend(x32, type='" + type + "'))\n";
    }
  }
  test::writeFile(dir.file("detrend.py"), script);
  ASSERT_TRUE(test::runPython(dir.file("detrend.py")));
  for (std::size_t k = 0; k < sizes.size(); ++k) {
    const std::vector<double>& x = signals[k];
    for (const char* type : {"linear", "constant"}) {
      SCOPED_TRACE("n " + std::to_string(x.size()) + " " + type + " seed " + std::to_string(seed));
      const std::string name = dir.file(std::to_string(k)) + "-" + type;
      const SampleVector expected = readSignal(name + ".npy").samples;
      const SampleVector expected32 = readSignal(name + "-32.npy").samples;
      const AppliedJob serial = run(type, x, "cpu-serial");
      const AppliedJob parallel = run(type, x, "cpu-parallel");
      const AppliedJob narrow = run(type, x, "auto", SampleType::f32);
      ASSERT_EQ(serial.result.output.size(), x.size());
      EXPECT_EQ(parallel.result.output, serial.result.output.toVector());  // the same blocks, the same bits
      EXPECT_TRUE(serial.result.verification.passed());
      EXPECT_TRUE(parallel.result.verification.passed());
      EXPECT_GT(parallel.result.verification.checked, 0u);
      const double bound = 1e-12 * largest(x);
      for (std::size_t i = 0; i < x.size(); ++i) {
        ASSERT_NEAR(serial.result.output[i], expected[i], bound) << i;
        // float32: scipy's float64 result on the float32 samples, rounded once (half a float32 ulp).
        ASSERT_NEAR(narrow.result.output[i], expected32[i], 0x1p-24 * std::fabs(expected32[i]) + bound) << i;
      }
    }
  }
}

TEST(Detrend, TakesAnEmptySignalAndRunsOnItsOwnEnginesOnly) {
  for (const char* type : {"linear", "constant"}) {
    EXPECT_TRUE(run(type, std::vector<double>{}).result.output.empty());
    EXPECT_TRUE(run(type, std::vector<double>{}, "cpu-serial", SampleType::f32).result.output.empty());
  }
  const auto stage = detrend("");
  EXPECT_EQ(stage->describe(), "detrend linear");
  EXPECT_EQ(stage->historyBefore(), std::nullopt);
  EXPECT_EQ(stage->historyAfter(), std::nullopt);
  EXPECT_FALSE(stage->response(16));
  EXPECT_EQ(stage->engineNames({}), (std::vector<std::string>{"cpu-serial", "cpu-parallel"}));
  const std::vector<double> x{1.0, 2.0, 4.0};
  EXPECT_EQ(run("linear", x, "auto").result.engine, "cpu-parallel");
  try {
    run("linear", x, "gpu-tuned");
    FAIL() << "ran on an engine it does not have";
  } catch (const StageError& e) {
    EXPECT_STREQ(e.what(), "detrend runs on cpu-serial or cpu-parallel, not \"gpu-tuned\"");
  }
  EXPECT_EQ(chainText(parseChain("detrend; detrend constant")), "detrend linear; detrend constant");
}

TEST(Detrend, RefusesSamplesFloat32CannotHoldAndStopsAtCancel) {
  const std::vector<double> huge{1.0, 1e300, 2.0};
  EXPECT_THROW(run("linear", huge, "auto", SampleType::f32), InputError);
  std::atomic<bool> cancel{true};
  Progress progress;
  progress.cancelFlag = &cancel;
  const std::vector<double> x(1000, 1.0);
  EXPECT_THROW(detrend("linear")->apply({}, x, StageRunOptions{}, progress), Cancelled);
}

}  // namespace
}  // namespace siglab
