#include "siglab/analytic_signal.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <optional>
#include <stdexcept>

#include "fftw_plans.hpp"
#include "siglab/large_page_buffer.hpp"

namespace siglab {

// SciPy's analytic signal is ifft(fft(x) h) with h 1 at DC (and Nyquist), 2 for the positive
// frequencies and 0 for the negative. For real x its real part is x itself (SciPy's to its
// rounding) and its imaginary part is the real inverse of -i sign(k) X[k] (DC and Nyquist zero):
// one real transform each way, half the work and memory of SciPy's complex pair.
void hilbertTransform(std::span<const double> x, std::span<double> im, bool parallel) {
  const std::size_t n = x.size();
  if (im.size() != n) throw std::invalid_argument("hilbertTransform: the output's size is not the input's");
  if (n == 0) return;
  // The half spectrum; a large one in 2 MiB pages (2 MiB-aligned, as fftw_malloc's arrays are aligned
  // for the plans): in 4 KiB pages its first touch cost a third of a transform.
  const std::size_t bytes = (n / 2 + 1) * sizeof(fftw_complex);
  std::optional<LargePageBuffer> large;
  detail::FftwArray<fftw_complex> small;
  if (bytes >= kLargePageBytes) {
    large.emplace(bytes);
  } else {
    small = detail::makeFftwArray<fftw_complex>(n / 2 + 1);
  }
  fftw_complex* z = large ? static_cast<fftw_complex*>(large->data()) : small.get();
  fftw_execute_dft_r2c(detail::realForwardPlanFor(x.data(), n, parallel), const_cast<double*>(x.data()), z);
  const double scale = 1.0 / static_cast<double>(n);  // SciPy's ifft divides by n ("backward")
  const auto positive = static_cast<std::int64_t>((n + 1) / 2);  // bins 1 .. positive - 1: the positive frequencies
  z[0][0] = z[0][1] = 0.0;
#pragma omp parallel for schedule(static) if (parallel && n > (std::size_t{1} << 16))
  for (std::int64_t k = 1; k < positive; ++k) {
    const double a = z[k][0], b = z[k][1];  // (a + ib)(-i) = b - ia
    z[k][0] = b * scale;
    z[k][1] = -a * scale;
  }
  if (n % 2 == 0) z[n / 2][0] = z[n / 2][1] = 0.0;
  fftw_execute_dft_c2r(detail::realInversePlanFor(im.data(), n, parallel), z, im.data());
}

void analyticSignal(std::span<const double> x, std::span<double> re, std::span<double> im, bool parallel) {
  if (re.size() != x.size()) throw std::invalid_argument("analyticSignal: the outputs' sizes are not the input's");
  hilbertTransform(x, im, parallel);
  if (re.data() != x.data()) std::copy(x.begin(), x.end(), re.begin());
}

std::vector<double> hilbertAt(std::span<const double> x, std::span<const std::size_t> positions) {
  // im = g (*) x circularly, g[m] = (2/n) sum_{k=1}^{(n-1)/2} sin(2 pi k m / n) in closed form:
  // (2/n) cot(pi m / n) for odd m (0 for even) where n is even; (cos(pi m / n) - (-1)^m) / (n sin(pi m / n)) where odd.
  // g[n - m] = -g[m] (and g[n/2] = 0): each g, computed once, weighs x[p - m] - x[p + m].
  const auto n = static_cast<std::int64_t>(x.size());
  const std::size_t count = positions.size();
  std::vector<long double> sums(count, 0.0L);
  const double nd = static_cast<double>(n);
  const std::int64_t step = n % 2 == 0 ? 2 : 1, last = (n - 1) / 2;
#pragma omp parallel if (n > (std::int64_t{1} << 16))
  {
    std::vector<long double> mine(count, 0.0L);
#pragma omp for schedule(static) nowait
    for (std::int64_t m = 1; m <= last; m += step) {
      const double angle = std::numbers::pi * static_cast<double>(m) / nd;
      const double g = n % 2 == 0 ? 2.0 / (nd * std::tan(angle))
                                  : (std::cos(angle) - (m % 2 == 0 ? 1.0 : -1.0)) / (nd * std::sin(angle));
      for (std::size_t p = 0; p < count; ++p) {
        const auto at = static_cast<std::int64_t>(positions[p]);
        const std::int64_t before = at - m < 0 ? at - m + n : at - m, after = at + m >= n ? at + m - n : at + m;
        mine[p] += static_cast<long double>(g) * (static_cast<long double>(x[before]) - x[after]);
      }
    }
#pragma omp critical
    for (std::size_t p = 0; p < count; ++p) sums[p] += mine[p];
  }
  return {sums.begin(), sums.end()};
}

OverlappedAnalytic::OverlappedAnalytic(Emit emit, AnalyticBlocks sizes, Transform transform)
    : emit_(std::move(emit)), sizes_(sizes), transform_(std::move(transform)) {
  if (sizes_.block == 0) throw std::invalid_argument("OverlappedAnalytic: a block of no outputs");
}

void OverlappedAnalytic::push(std::span<const double> x) {
  held_.insert(held_.end(), x.begin(), x.end());
  // A block goes out once the halo after it has come.
  while (heldFrom_ + held_.size() >= next_ + sizes_.block + sizes_.halo) emitBlock(false);
}

void OverlappedAnalytic::finish() {
  while (next_ < heldFrom_ + held_.size()) emitBlock(true);
}

void OverlappedAnalytic::emitBlock(bool atEnd) {
  const std::uint64_t end = heldFrom_ + held_.size();
  const std::uint64_t from = next_ >= sizes_.halo ? next_ - sizes_.halo : 0;
  const std::uint64_t outputsEnd = std::min(end, next_ + sizes_.block);
  const std::uint64_t to = atEnd ? end : std::min(end, outputsEnd + sizes_.halo);
  const std::span<const double> window = std::span<const double>(held_).subspan(from - heldFrom_, to - from);
  re_.resize(window.size());
  im_.resize(window.size());
  std::copy(window.begin(), window.end(), re_.begin());
  if (transform_) {
    transform_(window, im_);
  } else {
    hilbertTransform(window, im_, false);
  }
  const std::size_t skip = next_ - from, count = outputsEnd - next_;
  emit_(std::span<const double>(re_).subspan(skip, count), std::span<const double>(im_).subspan(skip, count));
  next_ = outputsEnd;
  // Keep only the halo before the next block.
  const std::uint64_t keepFrom = std::max(heldFrom_, next_ >= sizes_.halo ? next_ - sizes_.halo : 0);
  held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(keepFrom - heldFrom_));
  heldFrom_ = keepFrom;
}

}  // namespace siglab
