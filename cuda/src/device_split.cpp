#include "device_split.hpp"

#include "siglab/device_list.hpp"

namespace siglab::cuda {

std::string deviceProblem(const std::vector<DeviceInfo>& probed, int device) {
  if (probed.empty()) return "no CUDA device was probed";
  if (!probed.front().available && probed.front().index < 0) return probed.front().reason;  // no device at all
  for (const DeviceInfo& info : probed) {
    if (info.index == device) return info.available ? std::string() : info.reason;
  }
  return "there is no GPU " + std::to_string(device) + ": this machine has " + std::to_string(probed.size()) +
         " (0 to " + std::to_string(probed.size() - 1) + ")";
}

std::vector<DeviceInfo> probedFor(const std::vector<int>& devices, const DeviceInfo& firstDevice) {
  const bool firstAlone = devices.empty() || (devices.size() == 1 && devices.front() == 0);
  return firstAlone ? std::vector{firstDevice} : probeDevices();
}

std::unique_ptr<FilterBackend> engineOnDevices(const std::vector<int>& devices, const EngineOnDevice& engine,
                                               const PartOnDevice& part) {
  if (devices.size() <= 1) return engine(devices.empty() ? 0 : devices.front());
  std::vector<std::unique_ptr<PartEngine>> parts;
  for (int device : devices) {
    parts.push_back(part ? part(device) : std::make_unique<PartEngine>(engine(device)));
  }
  return std::make_unique<SplitFilterBackend>(std::move(parts), formatDevicePlacement(devices));
}

}  // namespace siglab::cuda
