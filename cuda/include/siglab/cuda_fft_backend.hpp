#pragma once
// gpu-fft behind plain C++ types: no CUDA header is needed to use it.
#include <memory>
#include <vector>

#include "siglab/filter_backend.hpp"

namespace siglab {

// gpu-fft: cuFFT overlap-save, the same blocks as cpu-fft (fft_convolution.hpp): the signal is
// copied to the device once, blocks of M = fftBlockLength(W) samples are gathered through the
// boundary rule, transformed in batches, multiplied by the taps' transform and transformed back.
// Any taps, every mode, float64; within fftEngineTolerance() of cpu-serial, not bit-identical.
// Listed everywhere; without a usable GPU unavailableReason() says why. `devices` as
// CudaOptions::devices: several split the signal into one part per device.
std::unique_ptr<FilterBackend> makeCudaFftBackend(const std::vector<int>& devices = {});

}  // namespace siglab
