#pragma once
// The GPU engines behind plain C++ types: no CUDA header is needed to use them.
#include <cstddef>
#include <string>
#include <vector>

#include "siglab/filter_backend.hpp"

namespace siglab {

struct DeviceInfo {
  bool available = false;
  std::string reason;            // why not, when unavailable
  int index = -1;
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  std::size_t totalMemoryBytes = 0;
  std::size_t freeMemoryBytes = 0;
  int multiprocessors = 0;
  std::size_t l2CacheBytes = 0;
  int memoryBusWidthBits = 0;
  int memoryClockKHz = 0;
  int driverVersion = 0;         // e.g. 13000 for CUDA 13.0
  int runtimeVersion = 0;

  // The datasheet-style figure from bus width and clock (double data rate), in GB/s.
  double theoreticalBandwidthGBs() const {
    return 2.0 * memoryClockKHz * 1e3 * (memoryBusWidthBits / 8.0) / 1e9;
  }
};

// Every CUDA device, or one unavailable entry whose reason says why there are none.
std::vector<DeviceInfo> probeDevices();

// Whether this program was built with the CUDA backends.
bool builtWithCuda();

// gpu-global, gpu-constant and gpu-shared on device 0. They are always listed; on a machine
// without a usable GPU each reports the reason through unavailableReason().
BackendList makeCudaBackends();

}  // namespace siglab
