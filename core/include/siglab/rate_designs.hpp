#pragma once
// The FIR filters the rate-changing stages design, step for step as SciPy 1.10 does:
// firwin(numtaps, cutoff, window) for a low-pass (resample_poly, decimate ftype='fir') with the
// symmetric kaiser and hamming windows. (decimate's IIR filter is cheby1Sections, iir_design.hpp.)
#include <cstddef>
#include <string>

#include <vector>

namespace siglab {

// A window as resample_poly's `window` names it: ("kaiser", beta) or "hamming".
struct FirWindow {
  enum class Shape { Kaiser, Hamming } shape = Shape::Kaiser;
  double beta = 5.0;  // Kaiser only
};

// "kaiser 5" or "hamming", for descriptions.
std::string firWindowText(const FirWindow& window);

// scipy.signal.get_window(window, n, fftbins=False): the symmetric window of n points.
std::vector<double> symmetricWindow(const FirWindow& window, std::size_t n);

// scipy.signal.firwin(numtaps, cutoff, window=window) for a low-pass: cutoff a fraction of Nyquist
// in (0, 1), the taps scaled to a gain of 1 at 0 Hz.
std::vector<double> firwinLowpass(std::size_t numtaps, double cutoff, const FirWindow& window);

}  // namespace siglab
