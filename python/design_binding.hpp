#pragma once
// siglab.signal's designs and responses (butter, cheby1, ..., firwin, freqz, sosfreqz): core's
// own design code, returned as NumPy arrays.
#include <pybind11/pybind11.h>

namespace siglab::python {
void bindDesigns(pybind11::module_& m);
}
