// scipy.signal.istft and check_COLA / check_NOLA (istft.hpp), the segments by FFTW's c2r.
#include "siglab/istft.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "fftw_plans.hpp"
#include "siglab/spectrogram.hpp"

namespace siglab {
namespace {

void checkSegment(std::size_t nperseg, std::size_t noverlap) {
  if (nperseg < 1) throw std::invalid_argument("nperseg must be a positive whole number, got 0");
  if (noverlap >= nperseg) {
    throw std::invalid_argument("noverlap must be from 0 to nperseg - 1 = " + std::to_string(nperseg - 1) + ", got " +
                                std::to_string(noverlap));
  }
}

// SciPy's binsums: the window (squared for NOLA) summed over the segments overlapping one hop.
std::vector<double> binSums(const std::vector<double>& w, std::size_t nperseg, std::size_t noverlap, bool squared) {
  const std::size_t step = nperseg - noverlap;
  std::vector<double> sums(step, 0.0);
  const auto v = [&](std::size_t i) { return squared ? w[i] * w[i] : w[i]; };
  for (std::size_t ii = 0; ii < nperseg / step; ++ii) {
    for (std::size_t k = 0; k < step; ++k) sums[k] += v(ii * step + k);
  }
  const std::size_t rest = nperseg % step;
  for (std::size_t k = 0; k < rest; ++k) sums[k] += v(nperseg - rest + k);
  return sums;
}

}  // namespace

bool checkCola(const std::string& window, double tukeyAlpha, std::size_t nperseg, std::size_t noverlap, double tol) {
  checkSegment(nperseg, noverlap);
  std::vector<double> sums = binSums(scipyWindow(window, tukeyAlpha, nperseg), nperseg, noverlap, false);
  std::vector<double> sorted = sums;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  double deviation = 0;
  for (const double s : sums) deviation = std::max(deviation, std::fabs(s - median));
  return deviation < tol;
}

bool checkNola(const std::string& window, double tukeyAlpha, std::size_t nperseg, std::size_t noverlap, double tol) {
  checkSegment(nperseg, noverlap);
  const std::vector<double> sums = binSums(scipyWindow(window, tukeyAlpha, nperseg), nperseg, noverlap, true);
  return *std::min_element(sums.begin(), sums.end()) > tol;
}

std::vector<double> istft(std::span<const double> stft, std::size_t frames, std::size_t frequencies, const IstftOptions& o) {
  if (stft.size() != frames * 2 * frequencies) throw std::invalid_argument("the STFT's values do not fill frames x 2 x frequencies");
  if (frequencies == 0) throw std::invalid_argument("the STFT has no frequencies");
  const std::size_t defaultSegment = 2 * (frequencies - 1);
  const std::size_t nperseg = o.nperseg.value_or(defaultSegment);
  std::size_t nfft = 0;
  if (o.nfft) {
    nfft = *o.nfft;
    if (nfft < nperseg) throw std::invalid_argument("nfft " + std::to_string(nfft) + " must be at least nperseg " + std::to_string(nperseg));
  } else {
    nfft = nperseg == defaultSegment + 1 ? nperseg : defaultSegment;  // an odd nperseg: no FFT padding
  }
  const std::size_t noverlap = o.noverlap.value_or(nperseg / 2);
  checkSegment(nperseg, noverlap);
  if (nfft == 0) throw std::invalid_argument("nfft must be positive (an STFT of one frequency needs nperseg)");
  if (!checkNola(o.window, o.tukeyAlpha, nperseg, noverlap)) {
    throw std::invalid_argument("the " + o.window + " window of nperseg " + std::to_string(nperseg) + " with noverlap " +
                                std::to_string(noverlap) + " fails the NOLA constraint (its overlapped squares vanish "
                                "somewhere), so the STFT cannot be inverted");
  }
  const std::vector<double> win = scipyWindow(o.window, o.tukeyAlpha, nperseg);
  double sum = 0, squares = 0;
  for (const double w : win) {
    sum += w;
    squares += w * w;
  }
  const double scale = o.density ? std::sqrt(o.rate * squares) : sum;
  const std::size_t step = nperseg - noverlap;
  const std::size_t length = frames == 0 ? 0 : nperseg + (frames - 1) * step;
  std::vector<double> x(length, 0.0), norm(length, 0.0);
  const std::size_t bins = nfft / 2 + 1;
  auto* spectrum = static_cast<fftw_complex*>(fftw_malloc(sizeof(fftw_complex) * bins));
  auto* segment = static_cast<double*>(fftw_malloc(sizeof(double) * nfft));
  const fftw_plan plan = detail::realInversePlan(nfft);
  for (std::size_t f = 0; f < frames; ++f) {
    const double* re = stft.data() + f * 2 * frequencies;
    const double* im = re + frequencies;
    for (std::size_t k = 0; k < bins; ++k) {  // irfft(n=nfft): the first bins, zeros past the STFT's
      spectrum[k][0] = k < frequencies ? re[k] : 0.0;
      spectrum[k][1] = k < frequencies ? im[k] : 0.0;
    }
    fftw_execute_dft_c2r(plan, spectrum, segment);
    for (std::size_t i = 0; i < nperseg; ++i) {
      x[f * step + i] += segment[i] / static_cast<double>(nfft) * scale * win[i];
      norm[f * step + i] += win[i] * win[i];
    }
  }
  fftw_free(spectrum);
  fftw_free(segment);
  std::size_t first = 0, last = length;
  if (o.boundary && length > 0) {
    first = std::min(length, nperseg / 2);
    last = length >= nperseg / 2 ? length - nperseg / 2 : 0;
    if (nperseg / 2 == 0) last = 0;  // SciPy's x[..., 0:-0] is empty
  }
  std::vector<double> out;
  for (std::size_t i = first; i < std::max(first, last); ++i) out.push_back(x[i] / (norm[i] > 1e-10 ? norm[i] : 1.0));
  return out;
}

}  // namespace siglab
