#pragma once
// One GPU engine on a list of devices: itself on one device, or a SplitFilterBackend with one part
// engine per listed device (a device listed twice takes two parts, each with its own streams and
// buffers: how a one-GPU machine exercises the split).
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "siglab/cuda_backends.hpp"
#include "siglab/split_filter.hpp"

namespace siglab::cuda {

// Why `device` cannot run GPU work, from one probe of every device; empty when it can.
std::string deviceProblem(const std::vector<DeviceInfo>& probed, int device);

// One probe that serves deviceProblem for `devices`: `firstDevice` alone when the list is device 0
// (or empty), else every device.
std::vector<DeviceInfo> probedFor(const std::vector<int>& devices, const DeviceInfo& firstDevice);

using EngineOnDevice = std::function<std::unique_ptr<FilterBackend>(int device)>;
using PartOnDevice = std::function<std::unique_ptr<PartEngine>(int device)>;

// `engine` on devices[0] (device 0 when the list is empty), or split over every listed device;
// `part` makes a part engine that reads its range in place (default: `engine` on a gathered copy).
std::unique_ptr<FilterBackend> engineOnDevices(const std::vector<int>& devices, const EngineOnDevice& engine,
                                               const PartOnDevice& part = {});

}  // namespace siglab::cuda
