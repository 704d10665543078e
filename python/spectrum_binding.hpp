#pragma once
// siglab.signal.welch's native part: Welch's spectrum on the engine the CLI's spectrum command would use.
#include <pybind11/pybind11.h>

namespace siglab::python {
void bindSpectrum(pybind11::module_& m);
}
