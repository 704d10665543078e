#pragma once
// Welch's spectrum on the GPU (cuFFT) behind plain C++ types: no CUDA header is needed to use it.
#include <cstddef>
#include <span>
#include <string>

#include "siglab/spectrum.hpp"

namespace siglab {

// Why the GPU spectrum cannot run here, or empty when it can.
std::string gpuSpectrumUnavailableReason();

struct GpuSpectrumRun {
  bool ok = false;
  std::string message;  // why not, when !ok (no GPU, out of memory, a CUDA error)
  Spectrum spectrum;
};

// The same spectrum as welch(): the signal goes to the device in chunks of whole segments (at most
// `chunkSegments` a chunk; 0: about 8 MiB of samples), each chunk's segments are detrended,
// windowed and transformed by one batched cuFFT plan, and |X_k|^2 is summed on the device.
// Agrees with welch() within spectrumAgreementBound(). Validates the options (throws
// SpectrumOptionError); never throws for a device problem. Segments of 2 to 2^30 samples.
GpuSpectrumRun welchGpu(std::span<const double> x, const WelchOptions& options, std::size_t chunkSegments = 0);

}  // namespace siglab
