#pragma once
// The correlation a FilterSpec describes, for any taps and every boundary mode, by FFT
// overlap-save: the outputs go in blocks of L, each computed from one real transform of
// M = L + W - 1 samples (the block and its halos; at the ends the halos come through the boundary
// rule, so the mode is simply padding) multiplied by the taps' transform and transformed back.
// O(N log M) whatever W; M is sized for the cache. Not bit-identical to cpu-serial: within
// fftFilterErrorBound() of the exact result.
#include <cstddef>
#include <span>

#include "siglab/filter_spec.hpp"
#include "siglab/progress.hpp"

namespace siglab {

// Filters `in` into `out` (same size) on every core. Throws std::invalid_argument for an invalid
// spec or sizes that differ; stops between blocks when `progress` is cancelled (throws Cancelled).
void filterFft(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
               const Progress& progress = {});

// The transform length M used for a window of W taps: a power of two, at least 4 W and 4096.
std::size_t fftBlockLength(std::size_t window);

// A bound on |filterFft - exact| for samples within +-maxAbsInput (derivation in fft_convolution.cpp).
// It holds for any FFT library meeting Higham's bound on power-of-two lengths (FFTW, cuFFT).
double fftFilterErrorBound(const FilterSpec& spec, double maxAbsInput);

// What an FFT engine's result may differ from cpu-serial's by: the bound above plus the rounding
// cpu-serial itself may make (W products summed in order: gamma_W sum|taps| max|x|).
double fftEngineTolerance(const FilterSpec& spec, double maxAbsInput);

}  // namespace siglab
