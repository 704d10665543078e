#include "polynomial_roots.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

namespace siglab::detail {
namespace {

using Wide = std::complex<long double>;

template <class C, class T>
std::pair<C, C> evaluate(const std::vector<T>& c, C x) {  // c highest power first
  C f = 0, fp = 0;
  for (const T& coefficient : c) {
    fp = fp * x + f;
    f = f * x + coefficient;
  }
  return {f, fp};
}

// Real roots exactly real; each remaining root paired with its nearest conjugate, both averaged.
Roots conjugatePairs(const Roots& roots) {
  Roots out, upper, lower;
  for (const Complex& r : roots) {
    if (std::abs(r.imag()) <= 1e-10 * std::max(1.0, std::abs(r))) {
      out.emplace_back(r.real(), 0.0);
    } else {
      (r.imag() > 0 ? upper : lower).push_back(r);
    }
  }
  // A multiple root splits into a small cluster that need not be symmetric: the odd ones out, those
  // nearest the axis, are real.
  const auto byHeight = [](const Complex& a, const Complex& b) { return std::abs(a.imag()) < std::abs(b.imag()); };
  while (upper.size() != lower.size()) {
    Roots& more = upper.size() > lower.size() ? upper : lower;
    const auto lowest = std::min_element(more.begin(), more.end(), byHeight);
    out.emplace_back(lowest->real(), 0.0);
    more.erase(lowest);
  }
  for (const Complex& u : upper) {
    const auto nearest = std::min_element(lower.begin(), lower.end(), [&](const Complex& a, const Complex& b) {
      return std::abs(a - std::conj(u)) < std::abs(b - std::conj(u));
    });
    const Complex mean = (u + std::conj(*nearest)) / 2.0;
    lower.erase(nearest);
    out.push_back(mean);
    out.push_back(std::conj(mean));
  }
  return out;
}

// A root of multiplicity m comes out as m roots spread by about eps^(1/m) around it; their mean is
// far closer. Roots within 1e-3 (relative) of each other are taken as one multiple root.
Roots meanOfClusters(Roots x) {
  std::vector<bool> taken(x.size(), false);
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (taken[i]) continue;
    std::vector<std::size_t> cluster{i};
    for (std::size_t j = i + 1; j < x.size(); ++j) {
      if (!taken[j] && std::abs(x[j] - x[i]) < 1e-3 * std::max(1.0, std::abs(x[i]))) cluster.push_back(j);
    }
    if (cluster.size() < 2) continue;
    Complex mean = 0;
    for (std::size_t j : cluster) mean += x[j];
    mean /= static_cast<double>(cluster.size());
    for (std::size_t j : cluster) {
      x[j] = mean;
      taken[j] = true;
    }
  }
  return x;
}

}  // namespace

Roots polynomialRoots(const std::vector<double>& c) {
  // Trailing zeros are roots at 0, exactly (as numpy.roots strips them).
  std::vector<double> poly = c;
  std::size_t zeros = 0;
  while (poly.size() > 1 && poly.back() == 0) {
    poly.pop_back();
    ++zeros;
  }
  // Roots at +1 and -1, multiple in every Butterworth and Chebyshev I design's b, divided out
  // exactly first: iterations reach a multiple root only to about eps^(1/m).
  Roots unitRoots;
  for (const double root : {-1.0, 1.0}) {
    while (poly.size() > 1) {
      double scale = 0;
      for (double v : poly) scale += std::abs(v);
      std::vector<double> quotient(poly.size() - 1);
      double carry = 0;
      for (std::size_t i = 0; i + 1 < poly.size(); ++i) quotient[i] = carry = poly[i] + carry * root;
      const double remainder = poly.back() + carry * root;
      if (std::abs(remainder) > 1e-12 * scale) break;
      poly = quotient;
      unitRoots.emplace_back(root, 0.0);
    }
  }
  const std::size_t n = poly.size() - 1;
  Roots x;
  if (n > 0) {
    const double radius = std::pow(std::abs(poly.back() / poly.front()), 1.0 / static_cast<double>(n));
    for (std::size_t k = 0; k < n; ++k) {
      x.push_back(std::polar(radius, 2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(n) + 0.4));
    }
    bool converged = false;
    for (int iteration = 0; iteration < 500 && !converged; ++iteration) {
      converged = true;
      for (std::size_t k = 0; k < n; ++k) {
        const auto [f, fp] = evaluate(poly, x[k]);
        if (f == 0.0) continue;
        const Complex alpha = f / fp;
        Complex beta = 0;
        for (std::size_t j = 0; j < n; ++j) {
          if (j != k) beta += 1.0 / (x[k] - x[j]);
        }
        const Complex step = alpha / (1.0 - alpha * beta);
        x[k] -= step;
        if (std::abs(step) > 1e-14 * std::max(1.0, std::abs(x[k]))) converged = false;
        if (!std::isfinite(x[k].real()) || !std::isfinite(x[k].imag())) {
          throw std::invalid_argument("the polynomial's roots could not be found (the iteration diverged)");
        }
      }
    }
    // Multiple roots (b of a Butterworth design: (1 + z^-1)^N) converge slowly, to about eps^(1/m):
    // numpy.roots finds them no closer, and the polynomial they multiply back to is as accurate.
    // A multiple root's cluster is replaced by its mean; only single roots are polished (Newton
    // would walk a cluster's members apart from their mean).
    const Roots found = x;
    x = meanOfClusters(x);
    const std::vector<long double> wide(poly.begin(), poly.end());
    for (std::size_t k = 0; k < n; ++k) {
      if (x[k] != found[k]) continue;
      Wide w(x[k].real(), x[k].imag());
      for (int i = 0; i < 4; ++i) {
        const auto [f, fp] = evaluate(wide, w);
        if (fp == Wide(0)) break;
        w -= f / fp;
      }
      x[k] = Complex(static_cast<double>(w.real()), static_cast<double>(w.imag()));
    }
    x = conjugatePairs(x);
  }
  x.insert(x.end(), unitRoots.begin(), unitRoots.end());
  x.insert(x.end(), zeros, 0.0);
  return x;
}

}  // namespace siglab::detail
