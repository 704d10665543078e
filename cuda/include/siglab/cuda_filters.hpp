#pragma once
// The filter algorithms of core (median_filter.hpp) on the GPU, behind plain C++ types: no CUDA
// header is needed. Without a usable GPU, or in a build without CUDA, each says why it did not run.
#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "siglab/boundary.hpp"
#include "siglab/butterworth.hpp"
#include "siglab/progress.hpp"
#include "siglab/split_filter.hpp"

namespace siglab {

enum class GpuStatus { Ok, Unavailable, OutOfMemory, Failed };

struct GpuFilterResult {
  GpuStatus status = GpuStatus::Ok;
  std::string reason;    // why it did not run, when status is not Ok
  double kernelMs = 0;   // the median kernel alone (CUDA events)
  double totalMs = 0;    // allocation, copies in and out and the kernel
  double errorBound = 0; // IIR scans: max |result - serial reference| stated for this run
};

// Largest window the GPU median takes (its shared-memory tile); wider windows: the CPU engine.
inline constexpr std::size_t kGpuMedianMaxWindow = 2049;

// Bit-identical to medianFilterReference: windows up to 9 select in registers per thread, wider
// ones sort a shared-memory tile once and let each thread walk it to its window's middle sample.
// Throws std::invalid_argument for an even window or sizes that differ, like the CPU engines.
// Runs on `device` (set for the call and restored after it). Copies and kernels go in parts of a
// few milliseconds: reports progress as they finish, and throws Cancelled at `progress`'s cancel.
GpuFilterResult medianFilterCuda(std::span<const double> in, std::size_t window, BoundaryMode mode,
                                 std::span<double> out, int device = 0, const Progress& progress = {});
GpuFilterResult medianFilterCuda(std::span<const float> in, std::size_t window, BoundaryMode mode,
                                 std::span<float> out, int device = 0, const Progress& progress = {});
// Outputs part [begin, end) of the above into the same places of `out` (a device's share of a
// split), reading the part and its halo straight from `in`: no host-side copy, and page-locked
// input at full copy speed. The same bits as the whole signal's outputs there.
GpuFilterResult medianFilterCudaPart(std::span<const double> in, SignalPart part, std::size_t window,
                                     BoundaryMode mode, std::span<double> out, int device,
                                     const Progress& progress = {});
GpuFilterResult medianFilterCudaPart(std::span<const float> in, SignalPart part, std::size_t window,
                                     BoundaryMode mode, std::span<float> out, int device,
                                     const Progress& progress = {});

// scipy.signal.sosfiltfilt on the GPU: the input is copied into the middle of the odd extension,
// then each direction is a block scan (sos_scan_steps.hpp): chunks of kSosScanChunk samples, one
// per thread, filtered from zero state for their end states; their true start states carried with
// A^C in two levels (within groups of chunks, then across groups), each by warps; every chunk
// filtered again from its true start. errorBound: sosScanErrorBound's
// bound plus the carry's rounding, forward (times the filter's gain) plus backward. Throws
// std::invalid_argument as sosfiltfilt does. Page-locked `in` and `out` are copied at full speed. Runs
// on `device` (set for the call and restored after it). Copies and kernels go in parts of a few
// milliseconds: reports progress as they finish, and throws Cancelled at `progress`'s cancel.
inline constexpr int kSosScanChunk = 512;
inline constexpr int kSosScanGroupChunks = 128;  // a group: 64 Ki samples, where a split may cut
GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                                int device = 0, const Progress& progress = {});
// The same on every listed device at once (empty: device 0; "0,0": two parts on device 0), the
// same bits as one device: the extension is cut at whole groups of chunks (counted from its start
// forwards, from its end backwards), each part runs its own chunks and groups on its own stream,
// and only the carry across groups, which one warp runs in group order, takes every part's group
// ends (through the host; each part runs it whole, as one device does). Between the passes a part
// takes the few forward outputs its backward range shares with the part before it. A device that
// does not exist: Unavailable, saying which there are.
GpuFilterResult sosfiltfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                                const std::vector<int>& devices, const Progress& progress = {});
// scipy.signal.sosfilt (from rest) with the same block scan: the forward pass alone, over the
// signal itself; errorBound is the forward pass's. Any stable sections (1 to kMaxScanStates / 2).
// `in` and `out` may lie in host memory or on the device (used in place); so may sosfiltfiltCuda's.
GpuFilterResult sosfiltCuda(const Sections& sections, std::span<const double> in, std::span<double> out,
                            const std::vector<int>& devices = {}, const Progress& progress = {});

}  // namespace siglab
