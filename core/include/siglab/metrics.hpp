#pragma once
// The numbers derived from a comparison, in one place: front-ends format them, never compute them.
#include <cstddef>

#include "siglab/comparison.hpp"
#include "siglab/io/sample_type.hpp"

namespace siglab {

// Bytes a filter reads and writes for `samples` samples of `type`: each sample read once and
// each output written once (the ideal traffic; halos and taps are not counted).
double bytesMoved(std::size_t samples, SampleType type);

// `bytes` over `ms`, in GB/s (10^9 bytes a second); 0 when ms is not positive.
double gigabytesPerSecond(double bytes, double ms);

// bytesMoved for the comparison's signal and sample type.
double bytesMoved(const Comparison& comparison);

// A GPU engine's host<->device rate: bytesMoved over its median transfer time; 0 for an engine
// that does not use a GPU (as it says) or did not run.
double transferGBs(const Comparison& comparison, const BackendResult& result);

// A result's kernel throughput: bytesMoved over its median kernel time; 0 when it did not run.
double kernelGBs(const Comparison& comparison, const BackendResult& result);

// A GPU engine's kernel throughput as a percentage of the device's memory bandwidth; 0 for an
// engine that does not use a GPU (as it says), that did not run, or when the limit is unknown.
double percentOfDeviceLimit(const Comparison& comparison, const BackendResult& result, double deviceLimitGBs);

}  // namespace siglab
