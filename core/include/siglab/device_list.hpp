#pragma once
// The GPUs an engine runs on, as people write them: "all", "1" or "0,1"; a device listed twice
// ("0,0") takes two parts of the signal on that one device (how one GPU exercises the split).
#include <string>
#include <string_view>
#include <vector>

namespace siglab {

inline constexpr std::size_t kMaxDeviceListEntries = 64;

// The devices `text` names, in order, for a machine with `deviceCount` GPUs ("all": every one;
// none on a machine without a GPU, whose engines then say why they cannot run; there only device
// 0, the default, may be named, as no other can exist). Throws
// std::invalid_argument saying what is wrong and what is allowed.
std::vector<int> parseDeviceList(std::string_view text, int deviceCount);

// "0,1": the list as parseDeviceList reads it back.
std::string formatDeviceList(const std::vector<int>& devices);

// "devices 0,1" for people (notes and descriptions).
std::string formatDevicePlacement(const std::vector<int>& devices);

}  // namespace siglab
