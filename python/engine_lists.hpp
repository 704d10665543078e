#pragma once
// The engines the module runs on, made once per device list: GPU engines keep their device state
// between calls.
#include <pybind11/pybind11.h>

#include <optional>
#include <vector>

#include "siglab/filter_backend.hpp"

namespace siglab::python {

// Every engine on device 0 (the process's own).
BackendList& engines();

// The GPUs a call's `devices` names (None: nullopt): "all", "0,1" or a sequence of ints, read by
// parseDeviceList against this machine's GPUs. Throws std::invalid_argument naming `devices`.
std::optional<std::vector<int>> deviceListOf(const pybind11::object& devices);

// The engines on `devices`: the process's own for nullopt, else made once per device list.
BackendList& enginesOn(const std::optional<std::vector<int>>& devices);

}  // namespace siglab::python
