// FFT overlap-save on every core. Error bound (Higham, Accuracy and Stability, Thm 24.2: an FFT
// of length M computes F z with ||error||_2 <= eta ||F z||_2, eta = 5 u log2 M):
// with u the block (M samples within +-A), t the taps zero-padded to M, U = F u, T = F t,
//   ||dU|| <= eta sqrt(M) ||u||,  ||dT|| <= eta sqrt(M) ||t||_2,  max|T| <= ||t||_1,  max|U| <= sqrt(M) ||u||;
// the product P = U conj(T) then errs by at most
//   eta sqrt(M) ||u|| ||t||_1 + sqrt(M) ||u|| eta sqrt(M) ||t||_2 + 2u sqrt(M) ||u|| ||t||_1,
// and the inverse (divided by M) adds eta ||u|| ||t||_1 while dividing the product's error by
// sqrt(M). With ||u|| <= sqrt(M) A, every output is within
//   A ( sqrt(M) (2 eta + 2u) ||t||_1 + eta M ||t||_2 )
// of the exact correlation. Measured (tests/core/fft_convolution_test.cpp): a W = 8001 Gaussian
// on 100,003 samples in [-100, 100] differs from cpu-serial by 3.3e-14, 4e-5 of the 8.5e-10
// tolerance (this bound plus cpu-serial's own rounding): loose, as norm-wise bounds are, but a
// wrong index, tap or padding is off by the size of the samples.
#include "siglab/fft_convolution.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "fftw_plans.hpp"
#include "siglab/boundary.hpp"
#include "siglab/work_progress.hpp"

namespace siglab {

std::size_t fftBlockLength(std::size_t window) { return std::bit_ceil(std::max<std::size_t>(4 * window, 4096)); }

double fftFilterErrorBound(const FilterSpec& spec, double maxAbsInput) {
  const double m = static_cast<double>(fftBlockLength(spec.window()));
  const double u = std::numeric_limits<double>::epsilon() / 2;
  const double eta = 5.0 * u * std::log2(m);
  double norm1 = 0.0, norm2 = 0.0;
  for (double t : spec.taps) {
    norm1 += std::fabs(t);
    norm2 += t * t;
  }
  return maxAbsInput * (std::sqrt(m) * (2 * eta + 2 * u) * norm1 + eta * m * std::sqrt(norm2));
}

double fftEngineTolerance(const FilterSpec& spec, double maxAbsInput) {
  const double u = std::numeric_limits<double>::epsilon() / 2;
  const double w = static_cast<double>(spec.window());
  double norm1 = 0.0;
  for (double t : spec.taps) norm1 += std::fabs(t);
  return fftFilterErrorBound(spec, maxAbsInput) + w * u / (1.0 - w * u) * norm1 * maxAbsInput;
}

void filterFft(std::span<const double> in, const FilterSpec& spec, std::span<double> out, const Progress& progress) {
  validate(spec);
  if (in.size() != out.size()) throw std::invalid_argument("filterFft: input and output sizes differ");
  if (in.empty()) return;
  const auto n = static_cast<std::int64_t>(in.size());
  const auto w = static_cast<std::int64_t>(spec.window()), radius = static_cast<std::int64_t>(spec.radius());
  const std::size_t m = fftBlockLength(spec.window()), bins = m / 2 + 1;
  const std::int64_t outputsPerBlock = static_cast<std::int64_t>(m) - w + 1;
  // A first plan of a length takes tens of milliseconds: Cancel is looked at after each.
  const fftw_plan forward = detail::realForwardPlan(m);
  progress.throwIfCancelled();
  const fftw_plan inverse = detail::realInversePlan(m);
  progress.throwIfCancelled();

  // conj(F t) / M: correlation by the cyclic product, normalised once here.
  auto tapsSpectrum = detail::makeFftwArray<fftw_complex>(bins);
  {
    auto padded = detail::makeFftwArray<double>(m);
    std::fill(padded.get(), padded.get() + m, 0.0);
    std::copy(spec.taps.begin(), spec.taps.end(), padded.get());
    fftw_execute_dft_r2c(forward, padded.get(), tapsSpectrum.get());
    const double scale = 1.0 / static_cast<double>(m);
    for (std::size_t k = 0; k < bins; ++k) {
      tapsSpectrum[k][0] *= scale;
      tapsSpectrum[k][1] *= -scale;
    }
  }

  const std::int64_t blocks = (n + outputsPerBlock - 1) / outputsPerBlock;
  WorkProgress work(progress, static_cast<std::uint64_t>(n));
  // A few blocks take microseconds: waking threads for them costs more (milliseconds when the
  // machine is busy), so they run on the calling thread.
#pragma omp parallel if (blocks >= 8)
  {
    auto block = detail::makeFftwArray<double>(m);
    auto spectrum = detail::makeFftwArray<fftw_complex>(bins);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) {
      if (work.cancelled()) continue;  // no break out of an OpenMP loop: the rest are skipped
      // Block sample s is signal position first - radius + s; its outputs are first..first+L-1.
      const std::int64_t first = b * outputsPerBlock, start = first - radius;
      const std::int64_t count = std::min<std::int64_t>(outputsPerBlock, n - first);
      const std::int64_t needed = count + w - 1;
      if (start >= 0 && start + needed <= n) {
        std::memcpy(block.get(), in.data() + start, static_cast<std::size_t>(needed) * sizeof(double));
      } else {
        for (std::int64_t s = 0; s < needed; ++s) {
          const std::int64_t index = boundaryIndex(start + s, n, spec.mode);
          block[static_cast<std::size_t>(s)] = index == kSkipSample ? 0.0 : in[static_cast<std::size_t>(index)];
        }
      }
      std::fill(block.get() + needed, block.get() + m, 0.0);
      fftw_execute_dft_r2c(forward, block.get(), spectrum.get());
      for (std::size_t k = 0; k < bins; ++k) {
        const double re = spectrum[k][0], im = spectrum[k][1];
        spectrum[k][0] = re * tapsSpectrum[k][0] - im * tapsSpectrum[k][1];
        spectrum[k][1] = re * tapsSpectrum[k][1] + im * tapsSpectrum[k][0];
      }
      fftw_execute_dft_c2r(inverse, spectrum.get(), block.get());
      std::memcpy(out.data() + first, block.get(), static_cast<std::size_t>(count) * sizeof(double));
      work.add(static_cast<std::uint64_t>(count));
    }
  }
  progress.throwIfCancelled();
}

}  // namespace siglab
