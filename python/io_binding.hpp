#pragma once
// siglab.read / siglab.write's native part: every registered signal format, read with its
// channels, rate and names, and written atomically after the CLI's output checks.
#include <pybind11/pybind11.h>

namespace siglab::python {
void bindSignalFiles(pybind11::module_& m);
}
