#pragma once
#include <memory>
#include <string>

#include "siglab/cuda_backends.hpp"

namespace siglab {

// gpu-tuned; `unavailable` is the reason it cannot run here, or empty.
std::unique_ptr<FilterBackend> makeTunedBackend(const CudaOptions& options, std::string unavailable);

}  // namespace siglab
