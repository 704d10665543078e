#pragma once
// What the lab's GPU ladders share: the device check and the mapping of a failure to the reason
// the ladder reports instead of its GPU rungs.
#include <exception>
#include <string>

#include "cuda_check.hpp"
#include "device_scope.hpp"
#include "stream.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/cuda_lab.hpp"

namespace siglab::cuda {

// Runs `rungs(device, stream, result)` (which appends to result.rungs) on the first device probed, its work
// queued on `stream`; no GPU, out of memory or a CUDA error becomes result.problem, with no
// half-finished rungs left behind.
template <class Rungs>
GpuRungs runOnDevice(double inputBytes, const Rungs& rungs) {
  GpuRungs result;
  const std::vector<DeviceInfo> devices = probeDevices();
  if (!devices.front().available) {
    result.problem = devices.front().reason;
    return result;
  }
  try {
    const DeviceScope scope(devices.front().index);
    const Stream stream;
    rungs(devices.front(), stream.view(), result);
  } catch (const OutOfDeviceMemory& e) {
    result.problem = "out of GPU memory for " + std::to_string(static_cast<long long>(inputBytes) >> 20) +
                     " MiB of operands (" + e.what() + ")";
    result.rungs.clear();
  } catch (const CudaError& e) {
    result.problem = e.what();
    result.rungs.clear();
  } catch (const std::exception& e) {
    result.problem = e.what();
    result.rungs.clear();
  }
  return result;
}

}  // namespace siglab::cuda
