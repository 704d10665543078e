#pragma once
// The filters the rate-changing stages design, step for step as SciPy 1.10 does:
// firwin(numtaps, cutoff, window) for a low-pass (resample_poly, decimate ftype='fir') with the
// symmetric kaiser and hamming windows, and cheby1(n, 0.05, 0.8 / q, output='sos') for decimate's
// default IIR filter (its own file: the `iir` work brings the general designs).
#include <cstddef>
#include <string>

#include "siglab/butterworth.hpp"

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

// scipy.signal.cheby1(order, ripple, cutoff, output='sos') for a low-pass, cutoff a fraction of
// Nyquist in (0, 1), ripple in dB. Order 0 is its gain alone. Throws std::invalid_argument for an
// unstable design.
Sections cheby1LowpassSections(int order, double rippleDb, double cutoff);

}  // namespace siglab
