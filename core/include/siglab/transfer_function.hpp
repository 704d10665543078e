#pragma once
// Given filters: coefficient files, and a transfer function b/a turned into what the engines run
// (taps for an FIR, second-order sections for an IIR, as scipy.signal.tf2sos pairs them).
#include <string>
#include <vector>

#include "siglab/butterworth.hpp"

namespace siglab {

// A file of coefficients, one a line (the taps format): InputError naming the file when it cannot
// be read, holds no number, or a value that is not finite.
std::vector<double> readCoefficients(const std::string& path);

// Sections as numpy.savetxt writes an sos array: one section a line, b0 b1 b2 a0 a1 a2, blank
// lines and '#' comments skipped. InputError naming the file and line for a line of another
// count, a value that does not read or is not finite, or a0 other than 1 (scipy's sosfilt refuses
// it: "sos[:, 3] should be all ones").
Sections readSectionsFile(const std::string& path);

// b and a divided by a[0] (lfilter's normalisation), leading zeros of b dropped as
// scipy.signal.normalize does. Throws std::invalid_argument when a is empty or a[0] is 0, or b is
// empty or all zeros.
struct TransferFunction {
  std::vector<double> b, a;
  bool isFir() const;  // a is [1] (after its trailing zeros): lfilter is then a convolution
};
TransferFunction normalisedTransferFunction(std::vector<double> b, std::vector<double> a);

// scipy.signal.tf2sos(b, a): tf2zpk (the polynomials' roots), then zpk2sos's 'nearest' pairing.
// Throws std::invalid_argument when a pole lies on or outside the unit circle (unstable).
Sections transferFunctionSections(const TransferFunction& tf);

// filtfilt's default padlen: 3 x max(len(a), len(b)) of the coefficients as given.
std::size_t filtfiltPadLength(std::size_t bCount, std::size_t aCount);

}  // namespace siglab
