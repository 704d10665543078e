#pragma once
// Butterworth IIR design as second-order sections, exactly the steps of
// scipy.signal.butter(order, Wn, btype, output='sos', fs=...): the analog prototype's poles,
// prewarping, the low/high/band-pass/band-stop transform, the bilinear transform, and zpk2sos with
// its 'nearest' pairing (the section with the poles nearest the unit circle last).
#include <array>
#include <cstdint>
#include <vector>

namespace siglab {

enum class BandType : std::uint8_t { Lowpass, Highpass, Bandpass, Bandstop };

struct ButterworthSpec {
  int order = 4;        // 1..kMaxButterworthOrder
  double cutoff = 0.2;  // Hz when sampleRate > 0, else a fraction of Nyquist in (0, 1)
  double cutoff2 = 0;   // the upper edge, for band-pass and band-stop only
  BandType type = BandType::Lowpass;
  double sampleRate = 0;  // Hz; 0: the cutoffs are fractions of Nyquist
};

inline constexpr int kMaxButterworthOrder = 32;

// One section: b0 b1 b2 a0 a1 a2 (a0 = 1), scipy's row layout.
using Section = std::array<double, 6>;
using Sections = std::vector<Section>;

// Throws std::invalid_argument naming the parameter and its allowed range: order outside 1..32,
// cutoffs outside (0, Nyquist) or not increasing, or a design whose sections are not stable.
Sections butterworthSections(const ButterworthSpec& spec);

// Throws std::invalid_argument unless every section's poles lie inside the unit circle.
void checkStable(const Sections& sections);

}  // namespace siglab
