#pragma once
#include <pybind11/pybind11.h>

namespace siglab::python {

// stage_kinds() and NativePipeline (from_chain, from_json, load, save, run, run_file, reach).
void bindPipeline(pybind11::module_& m);

}  // namespace siglab::python
