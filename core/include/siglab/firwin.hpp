#pragma once
// FIR design by the window method, exactly scipy.signal.firwin (SciPy 1.10, scale=True) with the
// symmetric windows of scipy.signal.get_window(..., fftbins=False).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace siglab {

enum class FirPassZero : std::uint8_t { True, False, Lowpass, Highpass, Bandpass, Bandstop };

struct FirwinSpec {
  std::size_t numtaps = 101;
  std::vector<double> cutoffs;  // Hz when sampleRate > 0, else fractions of Nyquist, increasing
  std::string window = "hamming";  // one of firwinWindows()
  double beta = 0;                 // kaiser's
  FirPassZero passZero = FirPassZero::True;
  double sampleRate = 0;
};

inline constexpr std::size_t kMaxFirwinTaps = std::size_t{1} << 20;

// The window names firwin takes here: hamming, hann, blackman, blackmanharris, nuttall, flattop,
// boxcar, bartlett, kaiser (with beta).
const std::vector<std::string>& firwinWindows();

// scipy.signal.get_window(name, m, fftbins=False).
std::vector<double> symmetricWindow(std::string_view name, std::size_t m, double beta = 0);

std::string_view toString(FirPassZero passZero);  // "true", "false", "lowpass", ...

// The taps. Throws std::invalid_argument naming the parameter as SciPy refuses it: numtaps outside
// 1..2^20, cutoffs not in (0, Nyquist) or not increasing, a pass_zero that does not fit the
// cutoffs' count, an even numtaps with a passband at Nyquist, an unknown window.
std::vector<double> firwinTaps(const FirwinSpec& spec);

}  // namespace siglab
