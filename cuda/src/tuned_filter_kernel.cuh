#pragma once
#include <cuda_runtime.h>

#include <cstdint>
#include <span>

#include "haloed_span.hpp"
#include "stream.hpp"

namespace siglab::cuda {

template <class T>
struct TunedLaunch {
  HaloedSpan<T> in;
  T* d_out = nullptr;  // n outputs, 16-byte aligned
  const T* d_taps = nullptr;
  int window = 1;
  bool prefixSum = false;  // uniform taps: O(N) window sums from prefix sums (float64 only)
  T uniformTap = 0;        // the one tap value, for prefixSum
};

// Uniform float64 windows from this size on take the prefix-sum path: its cost no longer grows with
// W, at the price of bit identity (see prefixSumErrorBound).
inline constexpr int kPrefixSumMinWindow = 65;
// Outputs per block on the prefix-sum path: each block scans its tile plus halos, 4096 + 2r values.
inline constexpr int kPrefixSumTile = 4096;

// Largest |prefix-sum result - cpu-serial| for a uniform window over samples with |x| <= maxAbs.
// Each block's prefix sums add at most L = kPrefixSumTile + W - 1 values, so each carries an error of
// at most (L-1) u L maxAbs in any order of addition (u = 2^-53); a window sum is the difference of
// two, then multiplied by the tap 1/W; cpu-serial's own sum of W products errs by at most
// W u maxAbs / W. Rounded up: (2 L^2 u + 3 W u) maxAbs / W, with 1% to spare.
double prefixSumErrorBound(int window, double maxAbs);

// Windows the tuned kernel takes: its tile plus halos must fit in shared memory.
inline constexpr int kMaxTunedWindow = 8191;

// Outputs each block of the tuned kernel filters (its tile): kPrefixSumTile on the prefix-sum path.
template <class T>
int tunedTileOutputs(bool prefixSum);

// Launches MeanFilterTuned on `stream` and checks the launch. Throws CudaError, or std::invalid_argument for a
// misaligned buffer or a window over kMaxTunedWindow.
template <class T>
void launchTunedFilter(const TunedLaunch<T>& launch, StreamView stream);

// Whether all `count` values at d_values (device memory) are finite: the check the prefix-sum path
// makes on a signal the host cannot read. Waits for the answer on `stream`.
template <class T>
bool allFiniteOnDevice(const T* d_values, std::size_t count, StreamView stream);

}  // namespace siglab::cuda
