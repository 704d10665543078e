#include "siglab/analytic_signal.hpp"

#include <algorithm>
#include <stdexcept>

#include "fftw_plans.hpp"

namespace siglab {

void analyticSignal(std::span<const double> x, std::span<double> re, std::span<double> im, bool parallel) {
  const std::size_t n = x.size();
  if (re.size() != n || im.size() != n) throw std::invalid_argument("analyticSignal: the outputs' sizes are not the input's");
  if (n == 0) return;
  // The half spectrum (r2c) lands in the first n / 2 + 1 values of z; the weights make the rest zero.
  auto z = detail::makeFftwArray<fftw_complex>(n);
  fftw_execute_dft_r2c(detail::realForwardUnalignedPlan(n, parallel), const_cast<double*>(x.data()), z.get());
  // SciPy's h: 1 at DC (and at Nyquist for even n), 2 for the positive frequencies, 0 for the negative.
  const std::size_t positive = (n + 1) / 2;  // bins 1 .. positive - 1 are doubled
  for (std::size_t k = 1; k < positive; ++k) {
    z[k][0] *= 2.0;
    z[k][1] *= 2.0;
  }
  const std::size_t zeroFrom = n % 2 == 0 ? n / 2 + 1 : positive;
  std::fill(&z[zeroFrom][0], &z[0][0] + 2 * n, 0.0);
  fftw_execute_dft(detail::complexInversePlan(n, parallel), z.get(), z.get());
  const double scale = 1.0 / static_cast<double>(n);  // SciPy's ifft divides by n ("backward")
  for (std::size_t i = 0; i < n; ++i) {
    re[i] = z[i][0] * scale;
    im[i] = z[i][1] * scale;
  }
}

OverlappedAnalytic::OverlappedAnalytic(Emit emit, AnalyticBlocks sizes) : emit_(std::move(emit)), sizes_(sizes) {
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
  analyticSignal(window, re_, im_, false);
  const std::size_t skip = next_ - from, count = outputsEnd - next_;
  emit_(std::span<const double>(re_).subspan(skip, count), std::span<const double>(im_).subspan(skip, count));
  next_ = outputsEnd;
  // Keep only the halo before the next block.
  const std::uint64_t keepFrom = std::max(heldFrom_, next_ >= sizes_.halo ? next_ - sizes_.halo : 0);
  held_.erase(held_.begin(), held_.begin() + static_cast<std::ptrdiff_t>(keepFrom - heldFrom_));
  heldFrom_ = keepFrom;
}

}  // namespace siglab
