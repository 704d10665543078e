#include "shared_helpers.hpp"
#include "siglab/savgol.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "scipy_oracle.hpp"
#include "scipy_support.hpp"
#include "test_support.hpp"

namespace siglab {
namespace {

using test::maxAbs;

TEST(Savgol, ReproducesAPolynomialOfDegreeUpToTheOrderAndItsDerivative) {
  // p(t) = 2 - t + 0.5 t^2 - 0.01 t^3, p'(t) = -1 + t - 0.03 t^2, sampled at t = 0.5 i.
  const double delta = 0.5;
  const auto p = [](double t) { return 2 - t + 0.5 * t * t - 0.01 * t * t * t; };
  const auto dp = [](double t) { return -1 + t - 0.03 * t * t; };
  std::vector<double> x(40);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = p(delta * static_cast<double>(i));
  for (std::size_t order : {3u, 4u, 6u}) {
    for (std::size_t deriv : {0u, 1u}) {
      SavgolSpec spec{9, order, deriv, delta};
      std::vector<double> y(x.size(), std::nan(""));
      savgolFilter(std::span<const double>(x), spec, std::span<double>(y));  // interp edges: exact too
      for (std::size_t i = 0; i < x.size(); ++i) {
        const double t = delta * static_cast<double>(i);
        EXPECT_NEAR(y[i], deriv ? dp(t) : p(t), 1e-10 * (1 + std::abs(p(t)))) << "order " << order << " i " << i;
      }
    }
  }
}

TEST(Savgol, TheOrderAndTheCoefficientWorkAreBoundedBeforeAnyIsDone) {
  // W = 1001, order 1000 took 15 s to refuse a short signal; W = 20001, order 20000 took 12.5 GB.
  for (const SavgolSpec& spec : {SavgolSpec{1001, 1000}, SavgolSpec{20001, 20000}, SavgolSpec{41, 33}}) {
    try {
      validate(spec);
      ADD_FAILURE() << "order " << spec.order << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()), "savgol order must be at most 32 (a higher degree fits no better than rounding "
                                       "allows), got " + std::to_string(spec.order));
    }
  }
  SavgolSpec wide{4097, 31};  // interp: the interior's QR and one for each edge, 4097 (ORDER + 1)^2 each
  EXPECT_EQ(savgolCoefficientWork(wide), std::uint64_t{3} * 4097 * 32 * 32);
  EXPECT_THROW(validate(wide), std::invalid_argument);
  wide.interp = false;  // one QR: within the bound
  EXPECT_NO_THROW(validate(wide));
  EXPECT_NO_THROW(validate(SavgolSpec{2047, 31}));
  EXPECT_THROW(validate(SavgolSpec{std::size_t{1} << 24, 0, 0, 1.0, false}), std::invalid_argument);
  EXPECT_EQ(savgolCoefficientWork(SavgolSpec{SIZE_MAX, 32}), std::numeric_limits<std::uint64_t>::max());
}

TEST(Savgol, InterpEdgesAreOneFitEvaluatedAtEachPositionAsItsCoefficientsGive) {
  // One QR an edge (scipy's _fit_edge) instead of one set of coefficients a position (W of them).
  std::mt19937_64 rng(test::freshSeed());
  for (const SavgolSpec& spec : {SavgolSpec{21, 4, 1, 0.5}, SavgolSpec{9, 8, 3}, SavgolSpec{101, 6, 0}, SavgolSpec{3, 0}}) {
    const std::vector<double> x = test::randomSignal(2 * spec.window + 5, rng);
    std::vector<double> edges(x.size(), 0.0);
    savgolInterpEdges(std::span<const double>(x), spec, std::span<double>(edges));
    const std::size_t half = spec.window / 2, n = x.size();
    for (std::size_t m = 0; m < half; ++m) {
      const std::vector<double> left = savgolCoefficients(spec, m), right = savgolCoefficients(spec, half + 1 + m);
      double l = 0, r = 0, scale = 0;
      for (std::size_t j = 0; j < spec.window; ++j) {
        l += left[j] * x[j];
        r += right[j] * x[n - spec.window + j];
        scale += std::abs(left[j] * x[j]) + std::abs(right[j] * x[n - spec.window + j]);
      }
      EXPECT_NEAR(edges[m], l, 1e-12 * scale) << "W " << spec.window << " m " << m;
      EXPECT_NEAR(edges[n - half + m], r, 1e-12 * scale) << "W " << spec.window << " m " << m;
    }
  }
}

TEST(Savgol, HandWorkedQuadraticSmoothingTaps) {
  // The classic 5-point quadratic smoother: (-3, 12, 17, 12, -3) / 35.
  const std::vector<double> c = savgolCoefficients(SavgolSpec{5, 2}, 2);
  const double expected[] = {-3, 12, 17, 12, -3};
  for (std::size_t j = 0; j < 5; ++j) EXPECT_NEAR(c[j], expected[j] / 35, 1e-15);
}

// The least-squares solution in exact rational arithmetic: A^T (A A^T)^-1 y.
constexpr const char* kExactCoefficients = R"(
from fractions import Fraction as F
import math
def exact(w, order, deriv, delta, pos):
    x = [F(j - pos) for j in range(w)]
    a = [[xi ** k for xi in x] for k in range(order + 1)]
    n = order + 1
    m = [[sum(a[i][j] * a[k][j] for j in range(w)) for k in range(n)] for i in range(n)]
    y = [F(0)] * n
    y[deriv] = F(math.factorial(deriv)) / F(delta) ** deriv
    rows = [m[i] + [y[i]] for i in range(n)]
    for c in range(n):
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c] / rows[c][c]
                rows[r] = [u - f * v for u, v in zip(rows[r], rows[c])]
    z = [rows[i][n] / rows[i][i] for i in range(n)]
    return np.array([float(sum(a[k][j] * z[k] for k in range(n))) for j in range(w)])
)";

// Against exact arithmetic to 1e-12, and against scipy.signal.savgol_coeffs where its lstsq on the
// unscaled Vandermonde matrix is itself accurate to 1e-12 (scipy 1.10 against the exact values:
// W = 31, order 12: 0.7%; W = 101, order 8: 8e-10; W = 21, order 6, deriv 3: 4e-11).
TEST(Savgol, CoefficientsMatchExactArithmeticAndScipy) {
  SIGLAB_SKIP_WITHOUT_SCIPY();  // the GPU machine may lack SciPy; CI has it (scripts/setup.sh)
  struct Case { std::size_t w, order, deriv, pos; double delta; bool scipyAccurate; };
  const std::vector<Case> cases = {{1, 0, 0, 0, 1, true},    {5, 2, 0, 2, 1, true},    {5, 2, 1, 0, 0.5, true},
                                   {7, 3, 2, 6, 2, true},    {11, 4, 0, 5, 1, true},   {21, 6, 3, 3, 0.5, false},
                                   {51, 2, 0, 25, 1, true},  {9, 8, 8, 4, 1, true},    {31, 12, 0, 15, 1, false},
                                   {101, 8, 1, 50, 1, false}};
  std::string exact = "[", scipy = "[";
  std::vector<double> ours;
  for (const Case& c : cases) {
    const std::string args = std::to_string(c.w) + ", " + std::to_string(c.order) + ", " + std::to_string(c.deriv) +
                             ", " + std::to_string(c.delta);
    exact += "exact(" + args + ", " + std::to_string(c.pos) + "), ";
    scipy += "signal.savgol_coeffs(" + args + ", pos=" + std::to_string(c.pos) + ", use='dot'), ";
    const std::vector<double> v = savgolCoefficients(SavgolSpec{c.w, c.order, c.deriv, c.delta}, c.pos);
    ours.insert(ours.end(), v.begin(), v.end());
  }
  const std::vector<double> expected =
      test::scipyEval("np.concatenate(" + exact + "] + " + scipy + "])", {}, kExactCoefficients);
  ASSERT_EQ(expected.size(), 2 * ours.size());
  std::size_t at = 0;
  for (const Case& c : cases) {
    const std::vector<double> e(expected.begin() + at, expected.begin() + at + c.w);
    const std::vector<double> s(expected.begin() + ours.size() + at, expected.begin() + ours.size() + at + c.w);
    for (std::size_t j = 0; j < c.w; ++j) {
      EXPECT_NEAR(ours[at + j], e[j], 1e-12 * maxAbs(e)) << "exact: W " << c.w << " order " << c.order << " j " << j;
      if (c.scipyAccurate) {
        EXPECT_NEAR(ours[at + j], s[j], 1e-11 * maxAbs(e)) << "scipy: W " << c.w << " order " << c.order << " j " << j;
      }
    }
    at += c.w;
  }
}

// savgol_filter in every mode (scipy has no "reflect" there: ndimage.convolve1d with the taps is
// its definition) on awkward sizes, float64 and float32.
template <typename T>
void expectSameAsScipy(const char* dtype) {
  const std::uint64_t seed = test::freshSeed();
  std::mt19937_64 rng(seed);
  std::vector<std::vector<double>> signals;
  for (std::size_t n : {1u, 2u, 6u, 7u, 33u, 1001u}) {
    std::vector<double> s = test::randomSignal(n, rng);
    for (double& v : s) v = static_cast<double>(static_cast<T>(v));
    signals.push_back(s);
  }
  struct Mode { const char* scipy; bool interp; BoundaryMode mode; };
  const Mode modes[] = {{"interp", true, BoundaryMode::Zero},     {"constant", false, BoundaryMode::Zero},
                        {"mirror", false, BoundaryMode::Mirror},   {"nearest", false, BoundaryMode::Nearest},
                        {"wrap", false, BoundaryMode::Wrap},       {"reflect", false, BoundaryMode::Reflect}};
  const SavgolSpec shapes[] = {{7, 2, 0, 1.0}, {7, 3, 1, 0.25}, {31, 5, 2, 1.0}};
  std::string expression = "np.concatenate([";
  std::vector<double> ours;
  double scale = 0;
  for (std::size_t s = 0; s < signals.size(); ++s) {
    const std::vector<T> in(signals[s].begin(), signals[s].end());
    const std::string x = "x[" + std::to_string(s) + "].astype(np." + dtype + ")";
    for (const SavgolSpec& shape : shapes) {
      const std::string args = std::to_string(shape.window) + ", " + std::to_string(shape.order) + ", " +
                               std::to_string(shape.deriv) + ", " + std::to_string(shape.delta);
      for (const Mode& m : modes) {
        if (m.interp && in.size() < shape.window) continue;
        SavgolSpec spec = shape;
        spec.interp = m.interp;
        spec.mode = m.mode;
        std::vector<T> out(in.size(), std::numeric_limits<T>::quiet_NaN());
        savgolFilter(std::span<const T>(in), spec, std::span<T>(out));
        ours.insert(ours.end(), out.begin(), out.end());
        expression += std::string(m.scipy) == "reflect"
                          ? "ndimage.convolve1d(" + x + ", signal.savgol_coeffs(" + args + "), mode='reflect'), "
                          : "signal.savgol_filter(" + x + ", " + args + ", mode='" + m.scipy + "'), ";
      }
    }
    for (double v : signals[s]) scale = std::max(scale, std::abs(v));
  }
  const std::vector<double> expected = test::scipyEval(expression + "])", signals);
  ASSERT_EQ(expected.size(), ours.size());
  // float64: rounding only; float32: one rounding of a float64 result to float.
  const double tolerance = scale * (sizeof(T) == 8 ? 1e-11 : 1e-5);
  std::size_t bad = 0;
  for (std::size_t i = 0; i < ours.size(); ++i) bad += !(std::abs(ours[i] - expected[i]) <= tolerance);
  EXPECT_EQ(bad, 0u) << "seed " << seed;
}

TEST(Savgol, FilterMatchesScipyInEveryModeFloat64) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  expectSameAsScipy<double>("float64");
}
TEST(Savgol, FilterMatchesScipyInEveryModeFloat32) {
  SIGLAB_SKIP_WITHOUT_SCIPY();
  expectSameAsScipy<float>("float32");
}

TEST(Savgol, RejectsBadParametersNamingTheRange) {
  const auto message = [](const SavgolSpec& spec) {
    try {
      validate(spec);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message({4, 2}).find("savgol window must be a positive odd number"), std::string::npos);
  EXPECT_NE(message({0, 0}).find("savgol window"), std::string::npos);
  EXPECT_NE(message({5, 5}).find("savgol order must be below the window (0 to 4)"), std::string::npos);
  EXPECT_NE(message({5, 2, 3}).find("savgol derivative must be at most the order (0 to 2)"), std::string::npos);
  EXPECT_NE(message({5, 2, 0, 0.0}).find("delta"), std::string::npos);
  std::vector<double> x(4), y(4);
  EXPECT_THROW(savgolFilter(std::span<const double>(x), SavgolSpec{5, 2}, std::span<double>(y)), std::invalid_argument);
}

}  // namespace
}  // namespace siglab
