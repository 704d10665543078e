#include "zpk_to_sections.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace siglab::detail {
namespace {

bool isReal(const Complex& c) { return c.imag() == 0; }

std::size_t countReal(const Roots& roots) {
  return static_cast<std::size_t>(std::count_if(roots.begin(), roots.end(), isReal));
}

// The root nearest the unit circle, the first of equals (numpy.argmin).
std::size_t worstIndex(const Roots& p) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < p.size(); ++i) {
    if (std::abs(1 - std::abs(p[i])) < std::abs(1 - std::abs(p[best]))) best = i;
  }
  return best;
}

enum class Which { Real, Complex, Any };

// scipy's _nearest_real_complex_idx: the nearest root of the kind asked for.
std::size_t nearestIndex(const Roots& from, Complex to, Which which) {
  std::vector<std::size_t> order(from.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return std::abs(from[a] - to) < std::abs(from[b] - to); });
  for (std::size_t i : order) {
    if (which == Which::Any || (which == Which::Real) == isReal(from[i])) return i;
  }
  throw std::logic_error("zpk2sos: no root of the kind needed to pair with");
}

Complex take(Roots& roots, std::size_t index) {
  const Complex r = roots[index];
  roots.erase(roots.begin() + static_cast<std::ptrdiff_t>(index));
  return r;
}

// numpy.poly: prod (x - r), highest power first, real part (the roots come in conjugate pairs).
std::vector<double> poly(const Roots& roots) {
  std::vector<Complex> a = {1};
  for (const Complex& r : roots) {
    std::vector<Complex> next(a.size() + 1, 0);
    for (std::size_t i = 0; i < a.size(); ++i) {
      next[i] += a[i];
      next[i + 1] += a[i] * -r;
    }
    a = next;
  }
  std::vector<double> real;
  for (const Complex& c : a) real.push_back(c.real());
  return real;
}

Section singleSection(const Roots& z, const Roots& p) {
  Section s{};
  const std::vector<double> b = poly(z), a = poly(p);
  std::copy(b.begin(), b.end(), s.begin() + static_cast<std::ptrdiff_t>(3 - b.size()));
  std::copy(a.begin(), a.end(), s.begin() + static_cast<std::ptrdiff_t>(6 - a.size()));
  return s;
}

}  // namespace

Roots conjugatesThenReals(const Roots& roots) {
  const double tol = 100 * std::numeric_limits<double>::epsilon();
  Roots z = roots;
  std::stable_sort(z.begin(), z.end(), [](const Complex& a, const Complex& b) {
    if (a.real() != b.real()) return a.real() < b.real();
    return std::abs(a.imag()) < std::abs(b.imag());
  });
  Roots reals, positive, negative;
  for (const Complex& r : z) {
    if (std::abs(r.imag()) <= tol * std::abs(r)) {
      reals.emplace_back(r.real(), 0.0);
    } else {
      (r.imag() > 0 ? positive : negative).push_back(r);
    }
  }
  if (positive.size() != negative.size()) throw std::logic_error("zpk2sos: a complex root has no conjugate");
  // Runs of (nearly) equal real parts are ordered by |imaginary part|.
  const auto byImag = [](const Complex& a, const Complex& b) { return std::abs(a.imag()) < std::abs(b.imag()); };
  for (std::size_t start = 0; start < positive.size();) {
    std::size_t stop = start + 1;
    while (stop < positive.size() && positive[stop].real() - positive[stop - 1].real() <= tol * std::abs(positive[stop - 1])) {
      ++stop;
    }
    std::stable_sort(positive.begin() + static_cast<std::ptrdiff_t>(start), positive.begin() + static_cast<std::ptrdiff_t>(stop), byImag);
    std::stable_sort(negative.begin() + static_cast<std::ptrdiff_t>(start), negative.begin() + static_cast<std::ptrdiff_t>(stop), byImag);
    start = stop;
  }
  Roots out;
  for (std::size_t i = 0; i < positive.size(); ++i) out.push_back((positive[i] + std::conj(negative[i])) / 2.0);
  out.insert(out.end(), reals.begin(), reals.end());
  return out;
}

Sections zpkToSections(Roots z, Roots p, double k) {
  if (z.empty() && p.empty()) return {Section{k, 0, 0, 1, 0, 0}};
  if (z.size() < p.size()) z.insert(z.end(), p.size() - z.size(), 0.0);
  if (p.size() < z.size()) p.insert(p.end(), z.size() - p.size(), 0.0);
  const std::size_t count = (p.size() + 1) / 2;
  if (p.size() % 2 == 1) {
    p.push_back(0.0);
    z.push_back(0.0);
  }
  z = conjugatesThenReals(z);
  p = conjugatesThenReals(p);
  Sections sos(count);
  for (std::size_t si = count; si-- > 0;) {
    const Complex p1 = take(p, worstIndex(p));
    if (isReal(p1) && countReal(p) == 0) {
      const Complex z1 = take(z, nearestIndex(z, p1, Which::Real));
      sos[si] = singleSection({z1, 0.0}, {p1, 0.0});
    } else if (p.size() + 1 == z.size() && !isReal(p1) && countReal(p) == 1 && countReal(z) == 1) {
      const Complex z1 = take(z, nearestIndex(z, p1, Which::Complex));
      sos[si] = singleSection({z1, std::conj(z1)}, {p1, std::conj(p1)});
    } else {
      Complex p2 = std::conj(p1);
      if (isReal(p1)) {
        Roots reals;
        std::vector<std::size_t> at;
        for (std::size_t i = 0; i < p.size(); ++i) {
          if (isReal(p[i])) {
            reals.push_back(p[i]);
            at.push_back(i);
          }
        }
        p2 = take(p, at[worstIndex(reals)]);
      }
      if (z.empty()) {
        sos[si] = singleSection({}, {p1, p2});
        continue;
      }
      const Complex z1 = take(z, nearestIndex(z, p1, Which::Any));
      if (!isReal(z1)) {
        sos[si] = singleSection({z1, std::conj(z1)}, {p1, p2});
      } else if (!z.empty()) {
        const Complex z2 = take(z, nearestIndex(z, p1, Which::Real));
        sos[si] = singleSection({z1, z2}, {p1, p2});
      } else {
        sos[si] = singleSection({z1}, {p1, p2});
      }
    }
  }
  for (int i = 0; i < 3; ++i) sos[0][static_cast<std::size_t>(i)] *= k;
  return sos;
}

}  // namespace siglab::detail
