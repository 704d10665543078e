#include "siglab/savgol.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "siglab/cpu_parallel.hpp"

namespace siglab {
namespace {

using Column = std::vector<long double>;

long double dot(const Column& a, const Column& b) {
  long double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}

void checkInterpLength(std::size_t n, const SavgolSpec& spec) {
  if (spec.interp && n < spec.window) {
    throw std::invalid_argument("savgol interp edges need at least W = " + std::to_string(spec.window) +
                                " samples; the signal has " + std::to_string(n) +
                                " (use a smaller window or another boundary mode)");
  }
}

template <typename T>
void interpEdgesAs(std::span<const T> in, const SavgolSpec& spec, std::span<T> out, const Progress& cancel) {
  validate(spec);
  checkInterpLength(in.size(), spec);
  if (in.size() != out.size()) throw std::invalid_argument("savgol: input and output sizes differ");
  const std::size_t w = spec.window, half = w / 2, n = in.size();
  for (std::size_t m = 0; m < half; ++m) {
    cancel.throwIfCancelled();  // each pair of fits is O(W order^2): wide windows take seconds in all
    const std::vector<double> left = savgolCoefficients(spec, m), right = savgolCoefficients(spec, half + 1 + m);
    double l = 0, r = 0;
    for (std::size_t j = 0; j < w; ++j) {
      l += left[j] * static_cast<double>(in[j]);
      r += right[j] * static_cast<double>(in[n - w + j]);
    }
    out[m] = static_cast<T>(l);
    out[n - half + m] = static_cast<T>(r);
  }
}

template <typename T>
void filterAs(std::span<const T> in, const SavgolSpec& spec, std::span<T> out) {
  validate(spec);
  checkInterpLength(in.size(), spec);
  filterParallel(in, savgolFilterSpec(spec), out);
  if (spec.interp) interpEdgesAs(in, spec, out, {});
}

}  // namespace

void validate(const SavgolSpec& spec) {
  if (spec.window == 0 || spec.window % 2 == 0) {
    throw std::invalid_argument("savgol window must be a positive odd number of samples (1, 3, 5, ...), got " +
                                std::to_string(spec.window));
  }
  if (spec.order >= spec.window) {
    throw std::invalid_argument("savgol order must be below the window (0 to " + std::to_string(spec.window - 1) +
                                "), got " + std::to_string(spec.order));
  }
  if (spec.deriv > spec.order) {
    throw std::invalid_argument("savgol derivative must be at most the order (0 to " + std::to_string(spec.order) +
                                "), got " + std::to_string(spec.deriv));
  }
  if (!(spec.delta > 0) || !std::isfinite(spec.delta)) {
    throw std::invalid_argument("savgol sample spacing (delta) must be a positive finite number");
  }
}

std::vector<double> savgolCoefficients(const SavgolSpec& spec, std::size_t pos) {
  validate(spec);
  if (pos >= spec.window) throw std::invalid_argument("savgol position must be inside the window");
  const std::size_t w = spec.window, terms = spec.order + 1;
  // Positions relative to `pos`, scaled into [-1, 1]: the scaling changes the right-hand side, not
  // the minimum-norm solution, and keeps the powers comparable.
  const long double scale = std::max<long double>(1, std::max(pos, w - 1 - pos));
  // Modified Gram-Schmidt, twice per column, on the columns t^k of the transposed matrix: A^T = QR.
  std::vector<Column> q(terms, Column(w));
  std::vector<std::vector<long double>> r(terms, std::vector<long double>(terms, 0));
  for (std::size_t k = 0; k < terms; ++k) {
    for (std::size_t j = 0; j < w; ++j) {
      q[k][j] = std::pow((static_cast<long double>(j) - static_cast<long double>(pos)) / scale, static_cast<int>(k));
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 0; i < k; ++i) {
        const long double c = dot(q[i], q[k]);
        r[i][k] += c;
        for (std::size_t j = 0; j < w; ++j) q[k][j] -= c * q[i][j];
      }
    }
    r[k][k] = std::sqrt(dot(q[k], q[k]));
    for (long double& v : q[k]) v /= r[k][k];
  }
  // A c = y has the minimum-norm solution c = Q u with R^T u = y; y picks the derivative.
  std::vector<long double> y(terms, 0);
  long double factorial = 1;
  for (std::size_t k = 2; k <= spec.deriv; ++k) factorial *= static_cast<long double>(k);
  y[spec.deriv] = factorial / std::pow(static_cast<long double>(spec.delta) * scale, static_cast<int>(spec.deriv));
  std::vector<long double> u(terms);
  for (std::size_t k = 0; k < terms; ++k) {
    long double s = y[k];
    for (std::size_t i = 0; i < k; ++i) s -= r[i][k] * u[i];
    u[k] = s / r[k][k];
  }
  std::vector<double> c(w);
  for (std::size_t j = 0; j < w; ++j) {
    long double s = 0;
    for (std::size_t k = 0; k < terms; ++k) s += u[k] * q[k][j];
    c[j] = static_cast<double>(s);
  }
  return c;
}

FilterSpec savgolFilterSpec(const SavgolSpec& spec) {
  return FilterSpec{savgolCoefficients(spec, spec.window / 2), spec.interp ? BoundaryMode::Zero : spec.mode,
                    Accumulator::Float64};
}

void savgolInterpEdges(std::span<const double> in, const SavgolSpec& spec, std::span<double> out,
                       const Progress& cancel) {
  interpEdgesAs(in, spec, out, cancel);
}
void savgolInterpEdges(std::span<const float> in, const SavgolSpec& spec, std::span<float> out,
                       const Progress& cancel) {
  interpEdgesAs(in, spec, out, cancel);
}
void savgolFilter(std::span<const double> in, const SavgolSpec& spec, std::span<double> out) {
  filterAs(in, spec, out);
}
void savgolFilter(std::span<const float> in, const SavgolSpec& spec, std::span<float> out) {
  filterAs(in, spec, out);
}

}  // namespace siglab
