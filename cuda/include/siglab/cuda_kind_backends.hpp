#pragma once
// The GPU engines of the other filter kinds (cuda_filters.hpp's algorithms) behind FilterBackend:
// no CUDA header is needed. Listed everywhere; without a usable GPU whyNot() says why.
#include <memory>

#include "siglab/cuda_backends.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab {

// gpu-median: medianFilterCuda, bit-identical to the reference, windows up to kGpuMedianMaxWindow.
std::unique_ptr<FilterBackend> makeGpuMedianBackend(const DeviceInfo& device);
// gpu-sos-scan: sosfiltfiltCuda (zero phase only; float32 is widened on the host and computed in
// float64, as scipy does), within sosKindTolerance of the serial sosfiltfilt.
std::unique_ptr<FilterBackend> makeGpuSosScanBackend(const DeviceInfo& device);

// The same on options.devices (empty: device 0). gpu-median splits the signal into one part per
// listed device, each reading its neighbours' samples as its halo: the same bits as one device.
// gpu-sos-scan splits its block scan (sosfiltfiltCuda's device list): the same bits too.
// `firstDevice` (probeDevices().front()) spares a probe when the list is device 0 alone.
std::unique_ptr<FilterBackend> makeGpuMedianBackend(const CudaOptions& options, const DeviceInfo& firstDevice);
std::unique_ptr<FilterBackend> makeGpuSosScanBackend(const CudaOptions& options, const DeviceInfo& firstDevice);

}  // namespace siglab
