#include "engine_lists.hpp"

#include <map>
#include <stdexcept>
#include <string>

#include "all_backends.hpp"
#include "siglab/cuda_backends.hpp"
#include "siglab/device_list.hpp"

namespace py = pybind11;

namespace siglab::python {

BackendList& engines() {
  static BackendList list = makeAllBackends();
  return list;
}

std::optional<std::vector<int>> deviceListOf(const py::object& devices) {
  if (devices.is_none()) return std::nullopt;
  const auto refused = [&] {
    return std::invalid_argument("devices must be \"all\", a string such as \"0,1\" or GPU numbers such as [0, 1], not " +
                                 py::repr(devices).cast<std::string>());
  };
  std::string text;
  if (py::isinstance<py::str>(devices)) {
    text = devices.cast<std::string>();
  } else if (py::isinstance<py::sequence>(devices)) {
    for (const py::handle item : devices.cast<py::sequence>()) {
      if (!py::isinstance<py::int_>(item) || py::isinstance<py::bool_>(item)) throw refused();
      text += (text.empty() ? "" : ",") + py::str(item).cast<std::string>();
    }
  } else {
    throw refused();
  }
  static const std::vector<DeviceInfo> probed = probeDevices();
  try {
    return parseDeviceList(text, probed.front().index < 0 ? 0 : static_cast<int>(probed.size()));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(std::string("devices ") + e.what());
  }
}

BackendList& enginesOn(const std::optional<std::vector<int>>& devices) {
  if (!devices) return engines();
  static std::map<std::vector<int>, BackendList> made;  // the GIL guards it
  auto found = made.find(*devices);
  if (found == made.end()) {
    CudaOptions options;
    options.devices = *devices;
    found = made.emplace(*devices, makeAllBackends(options)).first;
  }
  return found->second;
}

}  // namespace siglab::python
