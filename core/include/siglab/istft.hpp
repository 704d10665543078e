#pragma once
// scipy.signal.istft (SciPy 1.10) of one channel's STFT as the stft stage writes it (frames x
// (re, im) x frequencies), and SciPy's check_COLA / check_NOLA. Where SciPy's istft only warns
// that the NOLA constraint fails (the overlapped squared windows vanish somewhere, so those samples
// cannot be recovered), SigLab refuses, saying so.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace siglab {

/// scipy.signal.istft's arguments.
struct IstftOptions {
  std::string window = "hann";
  double tukeyAlpha = 0.5;
  std::optional<std::size_t> nperseg;   // None: 2 (frequencies - 1)
  std::optional<std::size_t> noverlap;  // None: nperseg / 2
  std::optional<std::size_t> nfft;      // None: nperseg (SciPy's rule for odd nperseg included)
  bool boundary = true;                 // the stft's boundary zeros removed
  bool density = false;                 // scaling 'psd' (else 'spectrum')
  double rate = 1.0;
};

// check_COLA / check_NOLA for a window named as spectrogram takes it (tol 1e-10 as SciPy's).
// Throw std::invalid_argument for nperseg < 1 or noverlap >= nperseg.
bool checkCola(const std::string& window, double tukeyAlpha, std::size_t nperseg, std::size_t noverlap, double tol = 1e-10);
bool checkNola(const std::string& window, double tukeyAlpha, std::size_t nperseg, std::size_t noverlap, double tol = 1e-10);

// The signal from `frames` x 2 x `frequencies` values (re then im of each frame). Throws
// std::invalid_argument naming the parameter (nperseg, nfft, noverlap) and its range, or saying
// that the window and noverlap fail NOLA.
std::vector<double> istft(std::span<const double> stft, std::size_t frames, std::size_t frequencies, const IstftOptions& options);

}  // namespace siglab
