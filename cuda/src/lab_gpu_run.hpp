#pragma once
// The lab's GPU ladders on the engine base (gpu_engine.hpp): its device check and its mapping of a
// failure, reported as the reason the ladder gives instead of its GPU rungs.
#include <exception>
#include <string>

#include "gpu_engine.hpp"
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
  GpuEngine engine(devices.front().available ? std::string() : devices.front().reason, devices.front().index);
  try {
    engine.run("out of GPU memory for " + std::to_string(static_cast<long long>(inputBytes) >> 20) + " MiB of operands",
               [&](const OnDevice& on) { rungs(devices.front(), on.stream, result); });
  } catch (const std::exception& e) {
    result.problem = e.what();
    result.rungs.clear();
  }
  return result;
}

}  // namespace siglab::cuda
