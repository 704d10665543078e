#pragma once
#include "siglab/cuda_backends.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab {

// The engine registry: every filter engine SigLab has, CPU first, in the order front-ends list
// them; a new engine is its class and one line here. GPU engines are listed even where they
// cannot run; their whyNot() says why. `firstDevice` spares a second probe of the devices.
BackendList makeAllBackends(const CudaOptions& cudaOptions = {}, const DeviceInfo* firstDevice = nullptr);

}  // namespace siglab
