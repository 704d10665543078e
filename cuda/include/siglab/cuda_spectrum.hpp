#pragma once
// Welch's spectrum on the GPU (cuFFT) behind plain C++ types: no CUDA header is needed to use it.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "siglab/progress.hpp"
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
// `devices` (empty: device 0; "0,0": two parts on device 0): the segments are summed in up to 8
// fixed ranges, each from zero, and the ranges' sums added in range order on the host; each device
// sums whole ranges (its own streams, pinned staging and cuFFT plan), so any device list gives the
// same bits as one device (devices of one model: cuFFT's transforms are the same there). A device
// that does not exist: not ok, saying which there are. `progress` hears of each chunk summed and
// Cancel is seen between chunks (the chunks in flight drain, then Cancelled is thrown).
GpuSpectrumRun welchGpu(std::span<const double> x, const WelchOptions& options, std::size_t chunkSegments = 0,
                        const std::vector<int>& devices = {}, const Progress& progress = {});

}  // namespace siglab
