#pragma once
// Each filter kind's spec built from its parameters, and the per-kind work every engine shares:
// the reference (cpu-serial's), the parallel CPU form (cpu-parallel's), Savitzky-Golay's interp
// edges (computed on the CPU whatever engine ran the interior) and the block scan's tolerance.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "siglab/filter_spec.hpp"
#include "siglab/frequency_response.hpp"
#include "siglab/progress.hpp"
#include "siglab/savgol.hpp"

namespace siglab {

// Each throws std::invalid_argument naming the parameter and its allowed range.
FilterSpec makeMedianFilter(std::size_t window, BoundaryMode mode);
// interp: scipy.signal.savgol_filter's default edges (`mode` is then unused); accumulated in
// float64 whatever the sample type, as scipy does.
FilterSpec makeSavgolFilter(std::size_t window, std::size_t order, std::size_t deriv, bool interp, BoundaryMode mode);
FilterSpec makeButterworthFilter(const ButterworthSpec& design, bool zeroPhase);
// Any stable sections (cheby1, ellip, a file's), `designText` saying what they are.
FilterSpec makeSectionsFilter(Sections sections, bool zeroPhase, std::string designText);

SavgolSpec savgolSpecOf(const FilterSpec& spec);

std::string_view toString(BandType type);  // "lowpass", "highpass", "bandpass", "bandstop"
std::optional<BandType> parseBandType(std::string_view text);

// The kind and its parameters in a few words: "median W=101, reflect", "savgol W=11 order=3
// deriv=0, interp", "butterworth order 8 bandpass 0.1-0.3 x Nyquist, zero phase".
std::string describeFilter(const FilterSpec& spec);

// Throws std::invalid_argument (naming `option` where not empty) when a signal of `samples` is too short for the
// spec: Savitzky-Golay's interp edges need n >= W, zero phase needs n > sosfiltfiltPadLength.
void checkSignalLength(const FilterSpec& spec, std::size_t samples, const std::string& option);

// Savitzky-Golay with interp edges: overwrites out's first and last W/2 with the CPU's fits.
// Nothing for other specs. Every engine's result goes through it, so the edges are the same bits.
void finishEdges(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                 const Progress& cancel = {});
void finishEdges(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                 const Progress& cancel = {});

// The reference for median and sections (medianFilterReference; sosfilt from zero state or
// sosfiltfilt, float32 computed in float64 and rounded once, as scipy does). Both forms report
// progress and look at Cancel (throwing Cancelled) every millisecond or so of work.
void filterKindReference(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                         const Progress& progress = {});
void filterKindReference(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                         const Progress& progress = {});
// The parallel CPU forms: medianFilterParallel (bit-identical) and the block scan (within
// sosKindTolerance). Returns where it cut the work.
std::vector<std::size_t> filterKindParallel(std::span<const double> in, const FilterSpec& spec, std::span<double> out,
                                            const Progress& progress = {});
std::vector<std::size_t> filterKindParallel(std::span<const float> in, const FilterSpec& spec, std::span<float> out,
                                            const Progress& progress = {});

// The filter's frequency response at `points` frequencies (frequency_response.hpp's grid): the taps'
// (Savitzky-Golay's as a convolution, as freqz(savgol_coeffs(...))), or the sections' (|H|^2 in
// zero phase); nothing for a median, which is not linear (whyNoResponse says so).
std::optional<FrequencyResponse> filterResponse(const FilterSpec& spec, std::size_t points,
                                                std::optional<double> sampleRate = std::nullopt);
std::string whyNoResponse(const FilterSpec& spec);  // empty when filterResponse gives one

// Largest |block scan - serial| for sections over an input with max |x| = maxAbsInput: the scan's
// bound (sosScanErrorBound) with every quantity it measures in a run replaced by its worst case
// (the odd extension's |x| <= 3 maxAbsInput, initial states |zi| x that). float32 adds one
// rounding of the largest possible output. 0 for other kinds (they are bit-identical).
double sosKindTolerance(const FilterSpec& spec, double maxAbsInput, bool float32);

}  // namespace siglab
