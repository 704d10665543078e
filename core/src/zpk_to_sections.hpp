#pragma once
// scipy.signal.zpk2sos(z, p, k, pairing='nearest') for digital filters, step by step.
#include <complex>
#include <vector>

#include "siglab/butterworth.hpp"

namespace siglab::detail {

using Complex = std::complex<double>;
using Roots = std::vector<Complex>;

// scipy's _cplxreal: one root of each conjugate pair (positive imaginary part), then the real
// roots, each group sorted by real part then |imaginary part|. Roots within 100 eps of the real
// axis count as real; a pair's two members are averaged.
Roots conjugatesThenReals(const Roots& roots);

Sections zpkToSections(Roots z, Roots p, double k);

}  // namespace siglab::detail
