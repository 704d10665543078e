#pragma once
// Welch's spectrum on the engine a front-end names, one rule for the CLI's spectrum command and
// Python's siglab.signal.welch: "auto" (the GPU where one can run it, else FFTW on every core),
// "cpu" (FFTW) or "gpu" (cuFFT, falling back to FFTW where it cannot run, saying why).
#include <span>
#include <string>
#include <vector>

#include "siglab/spectrum.hpp"

namespace siglab {

// `note` says which engine ran and why ("gpu (cuFFT)", "cpu (FFTW); the GPU could not run it: ...").
// Throws SpectrumOptionError for options the signal does not fit, std::invalid_argument for "gpu"
// where no GPU can run it.
Spectrum welchOnEngine(std::span<const double> samples, const WelchOptions& options, const std::string& engine,
                       const std::vector<int>& devices, std::string& note);

}  // namespace siglab
