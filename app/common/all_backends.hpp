#pragma once
#include <memory_resource>
#include <span>

#include "siglab/cuda_backends.hpp"
#include "siglab/filter_backend.hpp"

namespace siglab {

// The engine registry: every filter engine SigLab has, CPU first, in the order front-ends list
// them; a new engine is its class and one line here. GPU engines are listed even where they
// cannot run; their whyNot() says why. `firstDevice` spares a second probe of the devices.
BackendList makeAllBackends(const CudaOptions& cudaOptions = {}, const DeviceInfo* firstDevice = nullptr);

// Where to load the samples `engines` will filter (ReadOptions::hostMemory): page-locked memory
// when one of them copies to a GPU that can run `spec`, so it copies at full link speed; else
// ordinary memory (nullptr).
std::pmr::memory_resource* hostMemoryFor(std::span<FilterBackend* const> engines, const FilterSpec& spec,
                                         SampleType type);

}  // namespace siglab
