#pragma once
#include "siglab/cuda_backends.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab {

// Every filter engine SigLab has, CPU first, in the order front-ends list them. GPU engines are
// listed even where they cannot run; their unavailableReason() says why.
BackendList makeAllBackends(const CudaOptions& cudaOptions = {});

}  // namespace siglab
