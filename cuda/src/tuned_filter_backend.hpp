#pragma once
#include <memory>
#include <string>

#include "siglab/cuda_backends.hpp"
#include "siglab/split_filter.hpp"

namespace siglab {

// gpu-tuned on `device`; `unavailable` is the reason it cannot run there, or empty.
std::unique_ptr<FilterBackend> makeTunedBackend(const CudaOptions& options, std::string unavailable, int device);

// gpu-tuned as one part of a split signal: its chunks read the part's range of the caller's
// signal in place (no gathered copy), so pinned input stays a direct copy.
std::unique_ptr<PartEngine> makeTunedPartEngine(const CudaOptions& options, std::string unavailable, int device);

}  // namespace siglab
