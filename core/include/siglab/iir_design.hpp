#pragma once
// The classic IIR designs beside Butterworth, as second-order sections, exactly the steps of
// scipy.signal.iirfilter(..., output='sos') in SciPy 1.10: the family's analog lowpass prototype
// (cheb1ap, cheb2ap, ellipap, besselap), prewarping, lp2lp/lp2hp/lp2bp/lp2bs_zpk, bilinear_zpk
// and zpk2sos's 'nearest' pairing. The band (order, cutoffs, type, rate) is read as butter reads
// it (ButterworthSpec).
#include <cstdint>
#include <string>

#include "siglab/butterworth.hpp"

namespace siglab {

enum class IirFamily : std::uint8_t { Chebyshev1, Chebyshev2, Elliptic, Bessel };
enum class BesselNorm : std::uint8_t { Phase, Delay, Mag };  // scipy.signal.bessel's norm

struct IirDesign {
  IirFamily family = IirFamily::Chebyshev1;
  ButterworthSpec band;          // order, cutoffs, band type and rate, as butter takes them
  double passRipple = 1;         // rp, dB: cheby1, ellip
  double stopAttenuation = 40;   // rs, dB: cheby2, ellip
  BesselNorm norm = BesselNorm::Phase;
};

inline constexpr int kMaxIirOrder = 32;
inline constexpr int kMaxBesselOrder = 18;  // its poles, the Bessel polynomial's roots, match SciPy's to 1e-12 up to here

// scipy's name of the family: "cheby1", "cheby2", "ellip", "bessel".
std::string_view toString(IirFamily family);
std::string_view toString(BesselNorm norm);

// Throws std::invalid_argument naming the parameter and its allowed range (order, rp, rs,
// cutoffs), or when the design comes out unstable (a pole on or outside the unit circle).
Sections iirSections(const IirDesign& design);

// scipy.signal.cheby1(order, rp, Wn, btype, output='sos', fs=...), for callers that need just it.
Sections cheby1Sections(const ButterworthSpec& band, double passRipple);

// "cheby1 order 4 lowpass 0.2 x Nyquist rp 1 dB" (describe, reports).
std::string describeDesign(const IirDesign& design);

}  // namespace siglab
