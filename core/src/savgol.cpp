#include "siglab/savgol.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
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

// The columns ((j - origin) / scale)^k, k = 0..terms - 1, of the transposed Vandermonde matrix over
// j = 0..W - 1, as A^T = Q R: modified Gram-Schmidt, twice per column.
struct PowersQr {
  std::vector<Column> q;
  std::vector<std::vector<long double>> r;
};

PowersQr powersQr(std::size_t w, std::size_t terms, long double origin, long double scale) {
  PowersQr f{std::vector<Column>(terms, Column(w)), std::vector<std::vector<long double>>(terms, std::vector<long double>(terms, 0))};
  for (std::size_t k = 0; k < terms; ++k) {
    for (std::size_t j = 0; j < w; ++j) {
      f.q[k][j] = std::pow((static_cast<long double>(j) - origin) / scale, static_cast<int>(k));
    }
    for (int pass = 0; pass < 2; ++pass) {
      for (std::size_t i = 0; i < k; ++i) {
        const long double c = dot(f.q[i], f.q[k]);
        f.r[i][k] += c;
        for (std::size_t j = 0; j < w; ++j) f.q[k][j] -= c * f.q[i][j];
      }
    }
    f.r[k][k] = std::sqrt(dot(f.q[k], f.q[k]));
    for (long double& v : f.q[k]) v /= f.r[k][k];
  }
  return f;
}

// scipy's _fit_edge: the least-squares polynomial of degree spec.order through the W samples of
// `window`, its deriv-th derivative (per delta) at window positions [from, to), into `out`. One QR
// for the whole edge (the fit is the same whatever position it is evaluated at), so an edge costs
// what one set of coefficients does, not W of them.
template <typename T>
void fitEdge(std::span<const T> window, const SavgolSpec& spec, std::size_t from, std::size_t to, T* out) {
  const std::size_t w = spec.window, terms = spec.order + 1, d = spec.deriv;
  const long double centre = static_cast<long double>(w - 1) / 2, scale = std::max<long double>(1, centre);
  const PowersQr f = powersQr(w, terms, centre, scale);
  // The fit is sum_k z_k q_k with z = Q^T x; in powers of t = (j - centre) / scale its coefficients are R^-1 z.
  std::vector<long double> a(terms);
  for (std::size_t k = 0; k < terms; ++k) {
    long double z = 0;
    for (std::size_t j = 0; j < w; ++j) z += f.q[k][j] * static_cast<long double>(window[j]);
    a[k] = z;
  }
  for (std::size_t k = terms; k-- > 0;) {
    for (std::size_t i = k + 1; i < terms; ++i) a[k] -= f.r[k][i] * a[i];
    a[k] /= f.r[k][k];
  }
  // The deriv-th derivative in j: t^i becomes i! / (i - d)! t^(i - d) / scale^d.
  std::vector<long double> b(terms - d);
  for (std::size_t i = d; i < terms; ++i) {
    long double falling = 1;
    for (std::size_t m = i - d + 1; m <= i; ++m) falling *= static_cast<long double>(m);
    b[i - d] = a[i] * falling;
  }
  const long double perStep = std::pow(static_cast<long double>(spec.delta) * scale, static_cast<int>(d));
  for (std::size_t pos = from; pos < to; ++pos) {
    const long double t = (static_cast<long double>(pos) - centre) / scale;
    long double value = 0;
    for (std::size_t i = b.size(); i-- > 0;) value = value * t + b[i];
    out[pos - from] = static_cast<T>(value / perStep);
  }
}

template <typename T>
void interpEdgesAs(std::span<const T> in, const SavgolSpec& spec, std::span<T> out, const Progress& cancel) {
  validate(spec);
  checkInterpLength(in.size(), spec);
  if (in.size() != out.size()) throw std::invalid_argument("savgol: input and output sizes differ");
  const std::size_t w = spec.window, half = w / 2, n = in.size();
  if (half == 0) return;
  cancel.throwIfCancelled();  // an edge is one fit, O(W order^2): a check before each
  fitEdge(in.first(w), spec, 0, half, out.data());
  cancel.throwIfCancelled();
  fitEdge(in.last(w), spec, half + 1, w, out.data() + (n - half));
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
  if (spec.order > kMaxSavgolOrder) {
    throw std::invalid_argument("savgol order must be at most " + std::to_string(kMaxSavgolOrder) +
                                " (a higher degree fits no better than rounding allows), got " + std::to_string(spec.order));
  }
  if (const std::uint64_t work = savgolCoefficientWork(spec); work > kMaxSavgolWork) {
    throw std::invalid_argument("savgol W = " + std::to_string(spec.window) + ", order " + std::to_string(spec.order) +
                                (spec.interp ? " with interp edges" : "") + " needs " + std::to_string(work) +
                                " steps to fit its coefficients (W (ORDER + 1)^2" +
                                (spec.interp ? ", three times with the edges' fits" : "") + "); at most " +
                                std::to_string(kMaxSavgolWork) + " (about 0.2 s): use a smaller window or order" +
                                (spec.interp ? ", or a boundary mode" : ""));
  }
  if (spec.deriv > spec.order) {
    throw std::invalid_argument("savgol derivative must be at most the order (0 to " + std::to_string(spec.order) +
                                "), got " + std::to_string(spec.deriv));
  }
  if (!(spec.delta > 0) || !std::isfinite(spec.delta)) {
    throw std::invalid_argument("savgol sample spacing (delta) must be a positive finite number");
  }
}

std::uint64_t savgolCoefficientWork(const SavgolSpec& spec) {
  const auto w = static_cast<double>(spec.window), terms = static_cast<double>(spec.order) + 1.0;
  const double work = w * terms * terms * (spec.interp ? 3.0 : 1.0);  // any W: no integer overflow
  return work < 0x1p63 ? static_cast<std::uint64_t>(work) : std::numeric_limits<std::uint64_t>::max();
}

std::atomic<void (*)()> savgolCoefficientsObserverForTests{nullptr};

std::vector<double> savgolCoefficients(const SavgolSpec& spec, std::size_t pos) {
  if (const auto observe = savgolCoefficientsObserverForTests.load()) observe();
  validate(spec);
  if (pos >= spec.window) throw std::invalid_argument("savgol position must be inside the window");
  const std::size_t w = spec.window, terms = spec.order + 1;
  // Positions relative to `pos`, scaled into [-1, 1]: the scaling changes the right-hand side, not
  // the minimum-norm solution, and keeps the powers comparable.
  const long double scale = std::max<long double>(1, std::max(pos, w - 1 - pos));
  const PowersQr f = powersQr(w, terms, static_cast<long double>(pos), scale);
  const std::vector<Column>& q = f.q;
  const std::vector<std::vector<long double>>& r = f.r;
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
