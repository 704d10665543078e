#pragma once
// The one run of Welch's spectrum of a range of samples, in memory or through a file's mapping,
// with progress and Cancel: what the CLI's spectrum command, Python's siglab.signal.welch and the
// desktop's Spectrum view hand their request to (each with the engine welch_engine.hpp's rule chose).
#include <cstddef>
#include <functional>
#include <span>

#include "siglab/progress.hpp"
#include "siglab/spectrum.hpp"
#include "siglab/statistics.hpp"

namespace siglab {

class MappedSignal;

/// The samples a spectrum reads: in memory, or viewed from a file's mapping.
struct WelchSource {
  std::span<const double> samples;        // in memory (unused where `mapping` is set)
  const MappedSignal* mapping = nullptr;  // or read from the file a piece at a time
  std::size_t size() const;
};

// One engine's Welch of samples in memory, with its progress and Cancel: FFTW's welch(), or a
// front-end's run of its WelchEngineChoice (cuFFT, falling back to FFTW where the GPU fails).
using WelchRun = std::function<Spectrum(std::span<const double> samples, const WelchOptions& options,
                                        const Progress& progress)>;

// Welch's spectrum of samples [range.begin, range.end) of `source` (range.end's default: the
// signal's end) on `run` (empty: FFTW's welch), the same for every front-end. In memory: one run
// over the range. Mapped: pieces of whole segments (about 8 MiB of samples each) read and their
// pages let go behind, so resident memory stays one piece; the pieces' spectra averaged, weighted
// by their segment counts (within spectrumAgreementBound() of one run). Throws SpectrumOptionError for
// options the range does not fit, std::out_of_range for a range past the signal, Cancelled.
Spectrum welchOfRange(const WelchSource& source, SampleRange range, const WelchOptions& options,
                      const WelchRun& run = {}, const Progress& progress = {});

}  // namespace siglab
