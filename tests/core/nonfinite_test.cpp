// NaN and infinities: statistics as numpy gives them, filters as the serial formula gives them on
// every CPU engine.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include "siglab/compare.hpp"
#include "siglab/cpu_parallel.hpp"
#include "siglab/cpu_serial.hpp"
#include "siglab/statistics.hpp"
#include "scipy_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();


// numpy's sum, mean, sum of squares, rms, var, std, min, argmin, max, argmax of each of `cases`,
// in one run of Python.
std::vector<std::vector<double>> numpyStatistics(const std::vector<std::vector<double>>& cases, const test::TempDir& dir) {
  const std::string script = dir.file("stats.py");
  std::string files;
  for (std::size_t c = 0; c < cases.size(); ++c) {
    std::ostringstream text;
    text.precision(17);
    for (double v : cases[c]) text << v << "\n";
    const std::string data = dir.file("values" + std::to_string(c) + ".txt");
    test::writeFile(data, text.str());
    files += " " + data;
  }
  const std::string output = dir.file("stats.out");
  test::writeFile(script,
                  "import numpy as np, warnings\nwarnings.simplefilter('ignore')\n"
                  "with open('" + output + "', 'w') as out:\n"
                  " for name in '" + files + "'.split():\n"
                  "  a = np.loadtxt(name, dtype=np.float64, ndmin=1)\n"
                  "  r = [a.sum(), a.mean(), (a*a).sum(), np.sqrt((a*a).mean()), a.var(), a.std(),"
                  " a.min(), a.argmin(), a.max(), a.argmax()]\n"
                  "  print(' '.join(repr(float(v)) for v in r), file=out)\n");
  std::vector<std::vector<double>> results(cases.size());
  if (!test::runPython(script)) return results;
  std::ifstream in(output);
  std::string word;
  for (std::size_t i = 0; i < 10 * cases.size() && in >> word; ++i) results[i / 10].push_back(std::strtod(word.c_str(), nullptr));
  return results;
}

void expectSame(double ours, double numpy, const char* what, double relative) {
  if (std::isnan(numpy) || std::isinf(numpy)) {
    EXPECT_TRUE(std::isnan(numpy) ? std::isnan(ours) : ours == numpy) << what << ": " << ours << " vs numpy " << numpy;
  } else {
    EXPECT_NEAR(ours, numpy, relative * (std::fabs(numpy) + 1e-300)) << what;
  }
}

void expectNumpyStatistics(const Statistics& s, const std::vector<double>& numpy) {
  ASSERT_EQ(numpy.size(), 10u);
  expectSame(s.sum, numpy[0], "sum", 1e-9);
  expectSame(s.mean, numpy[1], "mean", 1e-9);
  expectSame(s.sumsq, numpy[2], "sumsq", 1e-9);
  expectSame(s.rms, numpy[3], "rms", 1e-9);
  expectSame(s.variance, numpy[4], "variance", 1e-8);
  expectSame(s.stddev, numpy[5], "std", 1e-8);
  expectSame(s.min, numpy[6], "min", 0.0);
  EXPECT_EQ(static_cast<double>(s.minIndex), numpy[7]) << "argmin";
  expectSame(s.max, numpy[8], "max", 0.0);
  EXPECT_EQ(static_cast<double>(s.maxIndex), numpy[9]) << "argmax";
}

TEST(NonFiniteStatistics, MatchNumpy) {
  SIGLAB_SKIP_WITHOUT_SCIPY();  // NumPy comes with SciPy
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  test::TempDir dir;
  const std::vector<std::vector<double>> injections = {{}, {kNaN}, {kInf}, {-kInf}, {kInf, -kInf}, {kNaN, kInf}, {-kInf, kNaN, kNaN}};
  std::vector<std::vector<double>> cases;
  for (std::size_t n : {1u, 2u, 7u, 3001u, 70001u}) {
    for (const auto& inject : injections) {
      if (inject.size() > n) continue;
      std::vector<double> values = test::randomSignal(n, rng);
      for (double v : inject) values[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)] = v;
      cases.push_back(std::move(values));
    }
  }
  const auto numpy = numpyStatistics(cases, dir);
  for (std::size_t c = 0; c < cases.size(); ++c) {
    SCOPED_TRACE("case " + std::to_string(c) + ", " + std::to_string(cases[c].size()) + " samples");
    expectNumpyStatistics(statisticsSerial(cases[c]), numpy[c]);
    expectNumpyStatistics(statisticsParallel(cases[c]), numpy[c]);
  }
}

TEST(NonFiniteStatistics, KnownCases) {
  const Statistics nan = statisticsSerial(std::vector<double>{1.0, 2.0, kNaN, -5.0, kNaN});
  EXPECT_TRUE(std::isnan(nan.sum) && std::isnan(nan.variance) && std::isnan(nan.stddev));
  EXPECT_TRUE(std::isnan(nan.min) && std::isnan(nan.max));
  EXPECT_EQ(nan.minIndex, 2u);
  EXPECT_EQ(nan.maxIndex, 2u);
  const Statistics inf = statisticsParallel(std::vector<double>{1.0, kInf, 2.0});
  EXPECT_EQ(inf.sum, kInf);  // not -nan: the compensation does not see the infinity
  EXPECT_EQ(inf.mean, kInf);
  EXPECT_TRUE(std::isnan(inf.variance));  // inf - inf, as numpy
  EXPECT_EQ(inf.max, kInf);
  EXPECT_EQ(inf.maxIndex, 1u);
}

TEST(NonFiniteFilters, EveryCpuEnginePropagatesAsTheSerialFormula) {
  const std::uint64_t seed = test::freshSeed();
  SCOPED_TRACE("seed " + std::to_string(seed));
  std::mt19937_64 rng(seed);
  for (std::size_t n : {1u, 5u, 1000u, 100003u}) {
    std::vector<double> in = test::randomSignal(n, rng);
    for (double v : {kNaN, kInf, -kInf}) in[std::uniform_int_distribution<std::size_t>(0, n - 1)(rng)] = v;
    for (BoundaryMode mode : {BoundaryMode::Zero, BoundaryMode::Reflect, BoundaryMode::Wrap}) {
      for (std::size_t w : {1u, 3u, 9u, 101u}) {
        const FilterSpec spec = makeMeanFilter(w, mode);
        std::vector<double> serial(n, kNaN), parallel(n, 0.0);
        filterSerial(in, spec, serial);
        filterParallel(in, spec, parallel);
        const Agreement agreement = compareResults(serial, parallel);
        EXPECT_TRUE(agreement.bitIdentical()) << "n " << n << " w " << w << " mode " << toString(mode)
                                              << ": first mismatch at " << agreement.firstMismatch;
      }
    }
  }
}

}  // namespace
}  // namespace siglab
