#pragma once
// Welch's spectrum on the engine core's rule chose (siglab/welch_engine.hpp), for the CLI's spectrum
// command, Python's siglab.signal.welch and the desktop's Spectrum view: each hands welchOfRange
// the run of its choice.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "siglab/spectrum.hpp"
#include "siglab/welch_engine.hpp"
#include "siglab/welch_range.hpp"

namespace siglab {

// The rule's choice for `requested` (auto, cpu, gpu) on this machine, for a spectrum of `samples`
// samples. Throws as chooseWelchEngine.
WelchEngineChoice welchEngineHere(const std::string& requested, const std::vector<int>& devices, std::uint64_t samples);

// `choice` as welchOfRange's run: cuFFT on its devices, or FFTW; a GPU run that fails turns
// `choice` (which must outlive the run) into the CPU fallback that says why, and FFTW runs.
WelchRun welchRunFor(WelchEngineChoice& choice);

// welchOfRange of all of `samples` on the choice for `engine`: `note` says which engine ran and why
// (WelchEngineChoice::note). Throws SpectrumOptionError for options the signal does not fit,
// std::invalid_argument as chooseWelchEngine.
Spectrum welchOnEngine(std::span<const double> samples, const WelchOptions& options, const std::string& engine,
                       const std::vector<int>& devices, std::string& note);

}  // namespace siglab
