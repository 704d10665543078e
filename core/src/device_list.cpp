#include "siglab/device_list.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>

namespace siglab {

std::vector<int> parseDeviceList(std::string_view text, int deviceCount) {
  const std::string allowed = deviceCount > 0 ? "; this machine has GPUs 0 to " + std::to_string(deviceCount - 1)
                                              : "; this machine has no usable GPU";
  if (text == "all") {
    std::vector<int> every;
    for (int d = 0; d < deviceCount; ++d) every.push_back(d);
    return every;
  }
  std::vector<int> devices;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.size() - start : comma - start);
    int device = -1;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), device);
    if (item.empty() || error != std::errc() || end != item.data() + item.size() || device < 0) {
      throw std::invalid_argument("must be all or GPU numbers separated by commas (such as 0,1), not \"" +
                                  std::string(text) + "\"" + allowed);
    }
    // Without a GPU, device 0 is the default the GPU engines refuse with their reason; no other exists.
    if (device >= std::max(deviceCount, 1)) {
      throw std::invalid_argument("names GPU " + std::to_string(device) + ", which does not exist" + allowed);
    }
    devices.push_back(device);
    if (devices.size() > kMaxDeviceListEntries) {
      throw std::invalid_argument("lists more than " + std::to_string(kMaxDeviceListEntries) + " devices");
    }
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return devices;
}

std::string formatDeviceList(const std::vector<int>& devices) {
  std::string text;
  for (int d : devices) {
    if (!text.empty()) text += ',';
    text += std::to_string(d);
  }
  return text;
}

std::string formatDevicePlacement(const std::vector<int>& devices) {
  std::string text = devices.size() == 1 ? "device " : "devices ";
  text += formatDeviceList(devices);
  return text;
}

}  // namespace siglab
