#pragma once
// The analog lowpass prototypes of scipy.signal (cheb1ap, cheb2ap, ellipap, besselap) as zeros,
// poles and gain, cutoff 1 rad/s, step by step as SciPy 1.10 computes them.
#include "siglab/iir_design.hpp"
#include "zpk_to_sections.hpp"

namespace siglab::detail {

struct Zpk {
  Roots z, p;
  double k = 1;
};

Zpk cheb1ap(int order, double passRipple);
Zpk cheb2ap(int order, double stopAttenuation);
Zpk ellipap(int order, double passRipple, double stopAttenuation);  // elliptic_prototype.cpp
Zpk besselap(int order, BesselNorm norm);                          // bessel_prototype.cpp

// numpy.prod of a complex array, left to right.
Complex product(const Roots& roots);

}  // namespace siglab::detail
