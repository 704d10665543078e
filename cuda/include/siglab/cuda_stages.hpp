#pragma once
// The GPU engines of issue 27's stages behind plain C++ types: spectrogram / stft frames, the
// polyphase rate changes (upfirdn, resample_poly, decimate's FIR) and find_peaks. Each runs through
// the GPU engine base (gpu_engine.hpp) and reads its input, and writes its output, wherever they
// lie: host memory is copied to the device and back, device memory is used in place (data already
// on the GPU). Without a usable GPU, or in a build without CUDA, each says why it did not run
// (GpuFilterResult's status and reason); the sections' scan is sosfiltCuda (cuda_filters.hpp).
#include <cstdint>
#include <span>
#include <vector>

#include "siglab/cuda_filters.hpp"
#include "siglab/find_peaks.hpp"
#include "siglab/polyphase.hpp"
#include "siglab/spectrogram.hpp"

namespace siglab {

// Frames [firstFrame, firstFrame + frames) of a spectrogram laid out by `layout`, as FrameTransform
// computes them (each frame's mean removed in a fixed-order tree, windowed, one batched cuFFT D2Z
// transform, then psd / magnitude / complex): `x` holds the samples of those frames, frame f
// starting at x[(f - firstFrame) * step]; `out` takes frames x planes x frequencies values. A
// stream passes its blocks' frames in turn: the same values as one call (the frames are
// independent). Within spectrogramAgreementBound of the reference; no stft padding (the caller's).
// Throws std::invalid_argument where x is too short for the frames or out is not their size.
GpuFilterResult spectrogramCuda(std::span<const double> x, const SpectrogramLayout& layout, std::uint64_t frames,
                                std::span<double> out, int device = 0);

// The largest |GPU - reference| spectrogramCuda promises on a frame whose samples are at most
// `maxAbsInput`: cuFFT's and FFTW's roundings, both O(log nfft) eps of the frame's energy.
double spectrogramAgreementBound(const SpectrogramLayout& layout, double maxAbsInput);

// Outputs [firstOutput, firstOutput + out.size()) of `fir` over a signal of n inputs, of which `x`
// holds inputs [base, base + x.size()) (every input those outputs read: Polyphase::firstInput ..
// lastInput): one thread an output, its products summed in Polyphase::outputAt's order, so the
// same bits as cpu-serial, whole or block by block (a stream's blocks with their history).
// Throws std::invalid_argument where x lacks an input the outputs read.
GpuFilterResult polyphaseCuda(const Polyphase& fir, std::span<const double> x, std::int64_t base, std::int64_t n,
                              std::int64_t firstOutput, std::span<double> out, int device = 0);

// The options find_peaks runs on the GPU: height, threshold and distance (prominence and width
// stay the CPU's PeakFinder's).
bool gpuFindsPeaks(const PeakOptions& options);

// scipy.signal.find_peaks(x, height, threshold, distance) on the GPU: every local maximum (a flat
// peak at its plateau's middle) tested for height and threshold by one thread each, kept in index
// order by a device-wide selection, then distance's greedy choice (the higher peak first) over the
// candidates on the host. `peaks` gets the rows (index, height): PeakFinder's, exactly. Throws
// std::invalid_argument for options gpuFindsPeaks refuses.
GpuFilterResult findPeaksCuda(std::span<const double> x, const PeakOptions& options, std::vector<PeakRow>& peaks,
                              int device = 0);

// scipy.signal.hilbert(x).imag (the Hilbert transform) of the whole signal on the GPU: one cuFFT
// D2Z of n points, -i X_k for 0 < k < n / 2 (DC and an even n's Nyquist zeroed), one Z2D back,
// scaled by 1 / n; `magnitude`: |x + i H(x)| instead (the envelope). Within the FFT's rounding of
// the CPU's transform (FFTW), the bound the envelope stage checks: 16 eps (log2 n + 1) ||x||_2.
// Throws std::invalid_argument where out is not x's size, or x has 2^31 samples or more.
GpuFilterResult hilbertCuda(std::span<const double> x, std::span<double> out, bool magnitude, int device = 0);

}  // namespace siglab
