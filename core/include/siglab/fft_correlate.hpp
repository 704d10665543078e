#pragma once
// correlate's FFT method (scipy.signal.correlate(x, t, mode, method='fft')): the full correlation
// as the convolution of x with the reversed template, one real FFT of the padded pair each way
// (FFTW), and SciPy's rule for method='auto' (choose_conv_method's operation counts).
#include <cstdint>
#include <span>
#include <string_view>

namespace siglab {

// Whether scipy.signal.correlate(x, t, mode, method='auto') takes the FFT for float64 x of n
// samples and t of m (SciPy 1.10's _fftconv_faster, 1-D constants). mode: "full", "same" or "valid".
bool scipyPicksFft(std::uint64_t n, std::uint64_t m, std::string_view mode);

// Outputs [offset, offset + out.size()) of the full convolution of x with `reversed` (the template
// reversed: correlate's full output), by one real transform each way of a fast length at least
// n + m - 1. `parallel`: FFTW's threads. Within fftCorrelateBound of the exact sums.
void fftCorrelate(std::span<const double> x, std::span<const double> reversed, std::uint64_t offset,
                  std::span<double> out, bool parallel);

// |fftCorrelate - exact| for every output: 16 eps (log2 L + 1) ||x||_2 ||t||_2 (L the transform's
// length), the FFT's rounding relative to the operands' norms.
double fftCorrelateBound(std::span<const double> x, std::span<const double> templateValues);

}  // namespace siglab
