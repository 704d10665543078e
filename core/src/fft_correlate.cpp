#include "siglab/fft_correlate.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "fftw_plans.hpp"

namespace siglab {
namespace {

// The least 2^a 3^b 5^c 7^d >= n: a length FFTW transforms fast.
std::size_t fastLength(std::size_t n) {
  std::size_t best = std::numeric_limits<std::size_t>::max();
  for (std::size_t p7 = 1; p7 < 2 * n + 8; p7 *= 7) {
    for (std::size_t p5 = p7; p5 < 2 * n + 8; p5 *= 5) {
      for (std::size_t p3 = p5; p3 < 2 * n + 8; p3 *= 3) {
        std::size_t v = p3;
        while (v < n) v *= 2;
        best = std::min(best, v);
      }
    }
  }
  return best;
}

}  // namespace

bool scipyPicksFft(std::uint64_t n, std::uint64_t m, std::string_view mode) {
  const double s1 = static_cast<double>(n), s2 = static_cast<double>(m);
  double direct = 0.0, oFft = 0.0, oDirect = 0.0, offset = -1e-3;
  if (mode == "full") {
    direct = s1 * s2;
    oFft = 1.7649070e-9;
    oDirect = 2.1414831e-10;
  } else if (mode == "valid") {
    direct = m >= n ? (s2 - s1 + 1) * s1 : (s1 - s2 + 1) * s2;
    oFft = 1.89095737e-9;
    oDirect = 2.1364985e-10;
  } else {  // same
    direct = n < m ? s1 * s2 : s1 * s2 - static_cast<double>((m / 2) * ((m + 1) / 2));
    const bool shorter = m <= n;
    oFft = shorter ? 3.2646654e-9 : 3.21635404e-9;
    oDirect = shorter ? 2.8478277e-10 : 1.1773253e-8;
    offset = shorter ? -1e-3 : -1e-5;
  }
  const double full = s1 + s2 - 1;
  const double fftOps = 3 * full * std::log(full);
  return oFft * fftOps < oDirect * direct + offset;
}

void fftCorrelate(std::span<const double> x, std::span<const double> reversed, std::uint64_t offset,
                  std::span<double> out, bool parallel) {
  if (out.empty()) return;
  const std::size_t n = x.size(), m = reversed.size();
  if (n == 0 || m == 0 || offset + out.size() > n + m - 1) {
    throw std::invalid_argument("fftCorrelate: the outputs lie outside the full correlation");
  }
  const std::size_t length = fastLength(n + m - 1), bins = length / 2 + 1;
  auto padded = detail::makeFftwArray<double>(length);
  auto xs = detail::makeFftwArray<fftw_complex>(bins), ts = detail::makeFftwArray<fftw_complex>(bins);
  const fftw_plan forward = detail::realForwardUnalignedPlan(length, parallel);
  std::fill(std::copy(x.begin(), x.end(), padded.get()), padded.get() + length, 0.0);
  fftw_execute_dft_r2c(forward, padded.get(), xs.get());
  std::fill(std::copy(reversed.begin(), reversed.end(), padded.get()), padded.get() + length, 0.0);
  fftw_execute_dft_r2c(forward, padded.get(), ts.get());
  const double scale = 1.0 / static_cast<double>(length);
  for (std::size_t k = 0; k < bins; ++k) {
    const double a = xs[k][0], b = xs[k][1], c = ts[k][0], d = ts[k][1];
    xs[k][0] = (a * c - b * d) * scale;
    xs[k][1] = (a * d + b * c) * scale;
  }
  fftw_execute_dft_c2r(detail::realInverseUnalignedPlan(length, parallel), xs.get(), padded.get());
  std::copy_n(padded.get() + offset, out.size(), out.begin());
}

double fftCorrelateBound(std::span<const double> x, std::span<const double> templateValues) {
  double xx = 0.0, tt = 0.0;
  for (const double v : x) xx += v * v;
  for (const double v : templateValues) tt += v * v;
  const double length = static_cast<double>(std::max<std::size_t>(x.size() + templateValues.size(), 2));
  return 16 * std::numeric_limits<double>::epsilon() * (std::log2(length) + 1) * std::sqrt(xx) * std::sqrt(tt);
}

}  // namespace siglab
